/* The kernels' recipes (lib/decide/recipes.c), decided on the CPU for a device described by its facts: each rule's
 * cases worked out by hand from the rule, an H100's 132 SMs unless a case says otherwise.  Run everywhere. */
#include <config.h>
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "recipes.h"
#include "suite.h"

/* an H100's facts (blocked's occupancy as a case needs it: the large tiles one an SM, the middle and thin two, the
 * small four) */
static tb_device_facts h100(void)
{
    tb_device_facts f = { .sms = 132, .cc = 90, .tma = 1 };
    f.blocked_per_sm[TB_BLOCKED_LARGE_M] = f.blocked_per_sm[TB_BLOCKED_LARGE_N] = 1;
    f.blocked_per_sm[TB_BLOCKED_MID] = f.blocked_per_sm[TB_BLOCKED_THIN] = 2;
    f.blocked_per_sm[TB_BLOCKED_SMALL] = 4;
    return f;
}

static tb_kproblem shape(tb_type t, int ta, int tb, int64_t m, int64_t n, int64_t k)
{
    return (tb_kproblem){ .type = t, .transa = ta, .transb = tb, .m = m, .n = n, .k = k, .alpha = 1.0 };
}

/* r in words (TILEBLAS_VERBOSE=2) is `want` */
static void text_is(tb_family family, const tb_recipe *r, const char *want)
{
    char buf[112];
    tb_recipe_text(family, r, buf, sizeof buf);
    ck_assert_str_eq(buf, want);
}

static tb_recipe decide(const tb_device_facts *f, tb_family family, int form, tb_kproblem p)
{
    const tb_decider d = tb_decider_of(f);
    tb_recipe r;
    tb_decide_recipe(&d, family, form, &p, &r);
    ck_assert_ptr_eq(r.decider->dev, f);
    return r;
}

/* 1536^3: 144 big tiles on 132 SMs, so the first 11 rows of tiles (1408 rows of C) are one part and the last 128
 * rows a second, whose tall and wide tiles are 24 either way (wide, no transpose), k split into 6 slices (264
 * slots / 24 tiles = 11, at most 1536 / 256 deep) */
START_TEST(dmma_spreads_a_last_wave)
{
    const tb_device_facts f = h100();
    const tb_recipe r = decide(&f, TB_FAMILY_DMMA, 0, shape(TB_TYPE_D, 0, 0, 1536, 1536, 1536));
    ck_assert_int_eq(r.shape, TB_DMMA_BIG);
    ck_assert_int_eq(r.slices, 1);
    ck_assert_int_eq(r.parts, 2);
    ck_assert_int_eq(r.by_rows, 1);
    ck_assert_int_eq(r.at, 1408);
    ck_assert_int_eq(r.shape2, TB_DMMA_WIDE);
    ck_assert_int_eq(r.slices2, 6);
    ck_assert_int_eq(r.persist_depth, 256);
    text_is(TB_FAMILY_DMMA, &r, "tile 128x128; rows from 1408: tile 64x128, k in 6 slices");
}
END_TEST

/* 8192^3: 4096 big tiles, 4092 in 31 full waves; 63 rows of tiles would leave 64 over, whose waves the full ones
 * would not fill but for 60 tiles (8 x 60 > 132): one part */
START_TEST(dmma_keeps_many_waves_whole)
{
    const tb_device_facts f = h100();
    const tb_recipe r = decide(&f, TB_FAMILY_DMMA, 0, shape(TB_TYPE_D, 0, 0, 8192, 8192, 8192));
    ck_assert_int_eq(r.shape, TB_DMMA_BIG);
    ck_assert_int_eq(r.parts, 1);
    ck_assert_int_eq(r.slices, 1);
}
END_TEST

/* A small C with a long k: one half tile, k in 32 slices (264 slots, at most 8192 / 256); with a transpose the tall
 * tile; k too short to split: one slice; the big tile needs k at least 1024 deep */
START_TEST(dmma_splits_few_tiles)
{
    const tb_device_facts f = h100();
    tb_recipe r = decide(&f, TB_FAMILY_DMMA, 0, shape(TB_TYPE_D, 0, 0, 64, 64, 8192));
    ck_assert_int_eq(r.shape, TB_DMMA_WIDE);
    ck_assert_int_eq(r.slices, 32);
    r = decide(&f, TB_FAMILY_DMMA, 0, shape(TB_TYPE_D, 1, 0, 64, 64, 8192));
    ck_assert_int_eq(r.shape, TB_DMMA_TALL);
    r = decide(&f, TB_FAMILY_DMMA, 0, shape(TB_TYPE_D, 0, 0, 64, 64, 200));
    ck_assert_int_eq(r.slices, 1);
    r = decide(&f, TB_FAMILY_DMMA, 0, shape(TB_TYPE_D, 0, 0, 8192, 8192, 512));
    ck_assert_int_ne(r.shape, TB_DMMA_BIG);
    /* on a GPU of 264 SMs the same 4096 big tiles still make the big tile */
    tb_device_facts big = h100();
    big.sms = 264;
    r = decide(&big, TB_FAMILY_DMMA, 0, shape(TB_TYPE_D, 0, 0, 8192, 8192, 8192));
    ck_assert_int_eq(r.shape, TB_DMMA_BIG);
}
END_TEST

/* blocked: a large C takes the large tile (TT the wide one, unless op(A) is read as complex blocks), unsplit */
START_TEST(blocked_large)
{
    const tb_device_facts f = h100();
    tb_recipe r = decide(&f, TB_FAMILY_BLOCKED, 0, shape(TB_TYPE_S, 0, 0, 8192, 8192, 8192));
    ck_assert_int_eq(r.shape, TB_BLOCKED_LARGE_M);
    ck_assert_int_eq(r.slices, 1);
    ck_assert_int_eq(r.transposed, 0);
    r = decide(&f, TB_FAMILY_BLOCKED, 0, shape(TB_TYPE_S, 1, 1, 8192, 8192, 8192));
    ck_assert_int_eq(r.shape, TB_BLOCKED_LARGE_N);
    r = decide(&f, TB_FAMILY_BLOCKED, TB_FORM_BLOCKS, shape(TB_TYPE_S, 1, 1, 8192, 8192, 8192));
    ck_assert_int_eq(r.shape, TB_BLOCKED_LARGE_M);
}
END_TEST

/* blocked's thin tile: m = 20 is computed as C^T (3000 x 20: 12 thin tiles in 264 slots), k = 2000 in slices at
 * least 128 deep: 15 asked for, 14 whole 16-deep pieces of 144; operands in a complex form are not transposed, so
 * a thin m with a wider n goes to another tile; n = 29 thin as it is */
START_TEST(blocked_thin)
{
    const tb_device_facts f = h100();
    tb_recipe r = decide(&f, TB_FAMILY_BLOCKED, 0, shape(TB_TYPE_S, 0, 0, 20, 3000, 2000));
    ck_assert_int_eq(r.shape, TB_BLOCKED_THIN);
    ck_assert_int_eq(r.transposed, 1);
    ck_assert_int_eq(r.slices, 14);
    text_is(TB_FAMILY_BLOCKED, &r, "tile 256x32, k in 14 slices, as C^T");
    r = decide(&f, TB_FAMILY_BLOCKED, TB_FORM_PAIRS, shape(TB_TYPE_S, 0, 0, 20, 3000, 2000));
    ck_assert_int_ne(r.shape, TB_BLOCKED_THIN);
    ck_assert_int_eq(r.transposed, 0);
    r = decide(&f, TB_FAMILY_BLOCKED, TB_FORM_PAIRS, shape(TB_TYPE_S, 0, 0, 3000, 29, 2000));
    ck_assert_int_eq(r.shape, TB_BLOCKED_THIN);
    ck_assert_int_eq(r.transposed, 0);
}
END_TEST

/* blocked's small tile: 64 x 64 x 8192 is one small tile of a wave of 528 (4 an SM): k in at most 64 slices,
 * each whole tiles deep; with k under 128, none */
START_TEST(blocked_small)
{
    const tb_device_facts f = h100();
    tb_recipe r = decide(&f, TB_FAMILY_BLOCKED, 0, shape(TB_TYPE_S, 0, 0, 64, 64, 8192));
    ck_assert_int_eq(r.shape, TB_BLOCKED_SMALL);
    ck_assert_int_eq(r.slices, 64);
    r = decide(&f, TB_FAMILY_BLOCKED, 0, shape(TB_TYPE_S, 0, 0, 64, 64, 100));
    ck_assert_int_eq(r.shape, TB_BLOCKED_SMALL);
    ck_assert_int_eq(r.slices, 1);
}
END_TEST

/* The tensor-core kernels: on Hopper with TMA, tc128 and tf32 run whatever has some k; tc32 only what it runs
 * faster than blocked (a large product, not a small, thin or shallow one); off Hopper, none of them.  Where they do
 * not, the recipe is blocked's. */
START_TEST(tensor_cores)
{
    const tb_device_facts f = h100();
    tb_recipe r = decide(&f, TB_FAMILY_TC32, 0, shape(TB_TYPE_S, 0, 0, 8192, 8192, 8192));
    ck_assert_int_eq(r.tensor, 1);
    ck_assert_int_eq(r.tc_slices, 1);
    ck_assert_int_eq(r.shape, TB_BLOCKED_LARGE_M);
    text_is(TB_FAMILY_TC32, &r, "tensor cores");
    r = decide(&f, TB_FAMILY_TC32, 0, shape(TB_TYPE_S, 0, 0, 64, 64, 64));
    ck_assert_int_eq(r.tensor, 0);
    ck_assert_int_eq(r.shape, TB_BLOCKED_SMALL);
    text_is(TB_FAMILY_TC32, &r, "not on the tensor cores: tile 64x64");
    r = decide(&f, TB_FAMILY_TC128, 0, shape(TB_TYPE_S, 0, 0, 64, 64, 64));
    ck_assert_int_eq(r.tensor, 1);
    r = decide(&f, TB_FAMILY_TC32, 0, shape(TB_TYPE_S, 0, 0, 8192, 40, 8192)); /* thin: tiles little used */
    ck_assert_int_eq(r.tensor, 0);
    r = decide(&f, TB_FAMILY_TC32, 0, shape(TB_TYPE_S, 0, 0, 4096, 4096, 128)); /* shallow */
    ck_assert_int_eq(r.tensor, 0);
    /* 1024 x 1024 x 8192: 64 tiles of 132 SMs, k split to fill them: 2 slices fill 128 of 132 */
    r = decide(&f, TB_FAMILY_TC32, 0, shape(TB_TYPE_S, 0, 0, 1024, 1024, 8192));
    ck_assert_int_eq(r.tensor, 1);
    ck_assert_int_eq(r.tc_slices, 2);
    /* tf32's tiles are 256 wide: 4096 x 4096 has 512 of them */
    r = decide(&f, TB_FAMILY_TF32, 0, shape(TB_TYPE_S, 0, 0, 4096, 4096, 4096));
    ck_assert_int_eq(r.tensor, 1);
    ck_assert_int_eq(r.tc_slices, 1);
    r = decide(&f, TB_FAMILY_TF32, 0, shape(TB_TYPE_S, 0, 0, 64, 64, 0));
    ck_assert_int_eq(r.tensor, 0);
    tb_device_facts ampere = h100(), no_tma = h100();
    ampere.cc = 80, no_tma.tma = 0;
    ck_assert_int_eq(decide(&ampere, TB_FAMILY_TC128, 0, shape(TB_TYPE_S, 0, 0, 8192, 8192, 8192)).tensor, 0);
    ck_assert_int_eq(decide(&no_tma, TB_FAMILY_TC32, 0, shape(TB_TYPE_S, 0, 0, 8192, 8192, 8192)).tensor, 0);
    ck_assert_int_eq(decide(&f, TB_FAMILY_NONE, 0, shape(TB_TYPE_S, 0, 0, 64, 64, 64)).tensor, 0);
}
END_TEST

/* The complex kernels' recipes.  ZGEMM on z4m-dmma: 4096^3 as the real product, Ab made (n over 1024) and op(B) in
 * place (N); 64^3 (2 MFLOP) and a C of 800 rows or 1000 columns as complex numbers (so that by shape op(A) is never
 * read in place: that is up to 1024 columns); the _HERE family reads it in place always, a transposed op(B) beside
 * it too but for a complex alpha */
START_TEST(complex_z)
{
    const tb_device_facts f = h100();
    tb_recipe r = decide(&f, TB_FAMILY_Z4M_DMMA, 0, shape(TB_TYPE_Z, 0, 0, 4096, 4096, 4096));
    ck_assert_int_eq(r.direct, 0);
    ck_assert_int_eq(r.a_here, 0);
    ck_assert_int_eq(r.b_here, 1);
    ck_assert_int_eq(r.b_pairs, 0);
    text_is(TB_FAMILY_Z4M_DMMA, &r, "as a real product: op(A) as Ab, op(B) in place");
    ck_assert_int_eq(decide(&f, TB_FAMILY_Z4M_DMMA, 0, shape(TB_TYPE_Z, 0, 0, 64, 64, 64)).direct, 1);
    ck_assert_int_eq(decide(&f, TB_FAMILY_Z4M_DMMA, 0, shape(TB_TYPE_Z, 0, 1, 800, 4096, 4096)).direct, 1);
    ck_assert_int_eq(decide(&f, TB_FAMILY_Z4M_DMMA, 0, shape(TB_TYPE_Z, 0, 1, 4096, 1000, 4096)).direct, 1);
    r = decide(&f, TB_FAMILY_Z4M_DMMA, 0, shape(TB_TYPE_Z, 1, 1, 4096, 2000, 4096));
    ck_assert_int_eq(r.direct, 0);
    ck_assert_int_eq(r.a_here, 0);  /* in place only up to 1024 columns */
    ck_assert_int_eq(r.b_here, 0);  /* a transposed op(B) beside Ab: */
    ck_assert_int_eq(r.b_pairs, 0); /* past 896 rows of op(A) B2 is made */
    r = decide(&f, TB_FAMILY_Z4M_DMMA_HERE, 0, shape(TB_TYPE_Z, 1, 1, 4096, 4096, 4096));
    ck_assert_int_eq(r.a_here, 1);
    ck_assert_int_eq(r.b_here, 1);
    tb_kproblem p = shape(TB_TYPE_Z, 1, 1, 4096, 4096, 4096);
    p.alpha_im = 0.5;
    r = decide(&f, TB_FAMILY_Z4M_DMMA_HERE, 0, p);
    ck_assert_int_eq(r.a_here, 1);
    ck_assert_int_eq(r.b_here, 0);
}
END_TEST

/* CGEMM: on c4m-tc32, 4096^3 as the real product with Ab; n = 1000 reads op(A) in place (1024 columns at most, op
 * N or T); a thin C (300 columns, 64 rows: 19200 elements) as complex numbers; off Hopper tc32 takes no real
 * product, so c4m-tc32 and c4m-blocked compute as complex numbers; c4m-tf32 never, and reads no pairs */
START_TEST(complex_c)
{
    const tb_device_facts f = h100();
    tb_device_facts ampere = h100();
    ampere.cc = 80;
    tb_recipe r = decide(&f, TB_FAMILY_C4M_TC32, 0, shape(TB_TYPE_C, 0, 1, 4096, 4096, 4096));
    ck_assert_int_eq(r.direct, 0);
    ck_assert_int_eq(r.a_here, 0);
    ck_assert_int_eq(r.b_pairs, 1);
    r = decide(&f, TB_FAMILY_C4M_TC32, 0, shape(TB_TYPE_C, 1, 1, 4096, 1000, 4096));
    ck_assert_int_eq(r.a_here, 1);
    ck_assert_int_eq(r.b_here, 0);
    ck_assert_int_eq(r.b_pairs, 0);
    ck_assert_int_eq(decide(&f, TB_FAMILY_C4M_TC32, 0, shape(TB_TYPE_C, 0, 0, 64, 300, 4096)).direct, 1);
    ck_assert_int_eq(decide(&ampere, TB_FAMILY_C4M_TC32, 0, shape(TB_TYPE_C, 0, 0, 4096, 4096, 4096)).direct, 1);
    ck_assert_int_eq(decide(&ampere, TB_FAMILY_C4M_BLOCKED, 0, shape(TB_TYPE_C, 0, 0, 4096, 4096, 4096)).direct, 1);
    ck_assert_int_eq(decide(&f, TB_FAMILY_C4M_BLOCKED, 0, shape(TB_TYPE_C, 0, 0, 4096, 4096, 4096)).direct, 0);
    r = decide(&ampere, TB_FAMILY_C4M_TF32, 0, shape(TB_TYPE_C, 0, 1, 64, 64, 64));
    ck_assert_int_eq(r.direct, 0);
    ck_assert_int_eq(r.a_here, 0);
    ck_assert_int_eq(r.b_pairs, 0);
}
END_TEST

/* cx: with its TMA kernels, 4 blocks of each tile an SM, no cluster counts known (a plain wave then).  ZGEMM
 * 1000 x 40 x 2000 on cx-dmma: 40 columns and op(A) (32 MB) past half the L2 (50 MiB): the 32 x 48 tile; its 32
 * tiles fill 264 slots (two an SM) best in 8 slices 256 deep, which the clusters sum (at most 384 deep, no more
 * rounds); op(B) not at 16 bytes: no TMA, so the 64 x 16 tile (32-column tiles would compute 64 columns against
 * 48).  CGEMM 64^3 x 4096 on cx-simt: 4 tiles of 528 slots, k in 32 slices 128 deep, in the workspace. */
START_TEST(complex_as_complex)
{
    tb_device_facts f = h100();
    f.cx_tma = 1, f.l2_bytes = 50 << 20;
    for (int i = 0; i < TB_CX_SHAPE_COUNT; i++)
        f.cx_per_sm[i] = 4;
    tb_kproblem p = shape(TB_TYPE_Z, 0, 0, 1000, 40, 2000);
    p.a = (const void *)(uintptr_t)4096, p.b = (const void *)(uintptr_t)8192, p.lda = 1000, p.ldb = 2000;
    tb_recipe r = decide(&f, TB_FAMILY_CX_DMMA, 0, p);
    ck_assert_int_eq(r.shape, TB_CX_Z_SPAN48);
    ck_assert_int_eq(r.slices, 8);
    ck_assert_int_eq(r.clustered, 1);
    text_is(TB_FAMILY_CX_DMMA, &r, "tile 32x48, k in 8 slices, summed in clusters");
    p.b = (const void *)(uintptr_t)8200;
    r = decide(&f, TB_FAMILY_CX_DMMA, 0, p);
    ck_assert_int_eq(r.shape, TB_CX_Z_NARROW);
    ck_assert_int_eq(r.clustered, 0);
    r = decide(&f, TB_FAMILY_CX_SIMT, 0, shape(TB_TYPE_C, 0, 0, 64, 64, 4096));
    ck_assert_int_eq(r.shape, TB_CX_C_SIMT);
    ck_assert_int_eq(r.slices, 32);
    ck_assert_int_eq(r.clustered, 0);
    /* the 4M kernels' products as complex numbers carry cx's recipe */
    r = decide(&f, TB_FAMILY_Z4M_DMMA, 0, shape(TB_TYPE_Z, 0, 0, 64, 64, 64));
    ck_assert_int_eq(r.direct, 1);
    ck_assert_int_eq(r.shape, TB_CX_Z_DMMA);
    text_is(TB_FAMILY_Z4M_DMMA, &r, "as complex numbers: tile 32x32");
}
END_TEST

/* The kernel that runs a problem: tc32 hands what it would run slower to blocked, tc128 keeps what its tensor cores
 * can run; off Hopper both hand everything to blocked; a kernel of no tensor-core family keeps everything. */
START_TEST(kernel_for)
{
    if (tb_kernel_count == 0) {
        printf("kernel_for: no kernels in this build (no CUDA): checked nothing\n");
        return;
    }
    const tb_device_facts f = h100();
    tb_device_facts ampere = h100();
    ampere.cc = 80;
    const tb_decider d = tb_decider_of(&f), da = tb_decider_of(&ampere);
    const int tc32 = tb_kernel_find("tc32"), tc128 = tb_kernel_find("tc128"), blocked = tb_kernel_find("blocked");
    const int dmma = tb_kernel_find("dmma");
    const tb_kproblem small = shape(TB_TYPE_S, 0, 0, 64, 64, 64), large = shape(TB_TYPE_S, 0, 0, 8192, 8192, 8192);
    ck_assert_int_eq(tb_decide_kernel(tc32, &large, &d), tc32);
    ck_assert_int_eq(tb_decide_kernel(tc32, &small, &d), blocked);
    ck_assert_int_eq(tb_decide_kernel(tc128, &small, &d), tc128);
    ck_assert_int_eq(tb_decide_kernel(tc128, &large, &da), blocked);
    ck_assert_int_eq(tb_decide_kernel(tc32, &large, &da), blocked);
    const tb_kproblem dp = shape(TB_TYPE_D, 0, 0, 64, 64, 64);
    ck_assert_int_eq(tb_decide_kernel(dmma, &dp, &da), dmma);
    ck_assert_int_eq(tb_decide_kernel(-1, &dp, &d), -1);
}
END_TEST

int main(void)
{
    const TTest *const tests[] = { dmma_spreads_a_last_wave, dmma_keeps_many_waves_whole, dmma_splits_few_tiles,
                                   blocked_large, blocked_thin, blocked_small, tensor_cores, complex_z, complex_c,
                                   complex_as_complex, kernel_for, NULL };
    return tt_run_tests("kernel recipes", "recipes", tests, 0, CK_FORK);
}
