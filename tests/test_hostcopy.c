/* Unit tests of the staging copies (lib/gpu/hostcopy.c), linked against the core: every element lands where it should
 * and nothing around it is touched, whatever the shape, leading dimensions and thread count; concurrent callers;
 * a forked child; the threads start in a process with much static TLS (as R's is).  Run everywhere (no GPU
 * involved). */
#include <config.h>
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "hostcopy.h"
#include "suite.h"

#define GUARD 37

/* Static TLS larger than the copy threads' own small stack: glibc takes it out of every thread's stack, so a
 * thread asked for with that stack alone is refused; the copies must then still get their threads. */
static _Thread_local volatile char big_tls[192 << 10];
static const float poison = -7777.0f;

/* Copy rows x cols from a (ld sld) matrix of distinct values into a poisoned (ld dld) one; check it all. */
static void copy_and_check(int64_t rows, int64_t cols, int64_t sld, int64_t dld)
{
    float *src = malloc(sizeof(float) * (size_t)(sld * cols + 1));
    float *mem = malloc(sizeof(float) * (size_t)(dld * cols + 2 * GUARD));
    ck_assert(src && mem);
    for (int64_t i = 0; i < sld * cols; i++)
        src[i] = (float)(i % 1000003) + 0.5f;
    for (int64_t i = 0; i < dld * cols + 2 * GUARD; i++)
        mem[i] = poison;
    float *dst = mem + GUARD;
    tb_copy2d(dst, dld, src, sld, rows, cols, sizeof(float));
    for (int64_t g = 0; g < GUARD; g++)
        tt_assert_msg(mem[g] == poison && dst[dld * cols + g] == poison, "guard touched (%lld x %lld)",
                      (long long)rows, (long long)cols);
    for (int64_t j = 0; j < cols; j++)
        for (int64_t i = 0; i < dld; i++) {
            float want = i < rows ? src[i + j * sld] : poison;
            if (dst[i + j * dld] != want)
                ck_abort_msg("%lld x %lld (ld %lld -> %lld): element (%lld, %lld) is %g, not %g", (long long)rows,
                             (long long)cols, (long long)sld, (long long)dld, (long long)i, (long long)j,
                             (double)dst[i + j * dld], (double)want);
        }
    free(src);
    free(mem);
}

START_TEST(shapes_and_leading_dimensions)
{
    static const int64_t shapes[][4] = {
        /* rows, cols, source ld, destination ld */
        { 1, 1, 1, 4 },         { 7, 3, 9, 8 },          { 1000, 1000, 1000, 1000 }, { 1023, 777, 1031, 1024 },
        { 300000, 3, 300001, 300004 }, { 3, 300000, 5, 4 }, { 512, 512, 513, 512 },  { 2049, 129, 2049, 2052 },
        { 1, 600000, 1, 4 },    { 600000, 1, 600000, 600000 },
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        copy_and_check(shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3]);
}
END_TEST

/* A copy started, other copies made meanwhile (beside it, on the same threads), then finished: all of both land.  Twice, so the second start finds the threads free again. */
/* tb_copy2d_part: exactly the elements of the part (upper or lower, its diagonal through any column or row, in
 * blocks small and large enough to be halved), the rest of dst as it was; herm: the diagonal's imaginary parts 0 */
START_TEST(part_of_a_block)
{
    static const int64_t sizes[][2] = { { 1, 1 }, { 7, 5 }, { 70, 90 }, { 300, 300 }, { 513, 200 } };
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (int up = 0; up <= 1; up++)
            for (int64_t d = -sizes[z][0] - 1; d <= sizes[z][1] + 1; d += 1 + sizes[z][1] / 7) {
                const int64_t rows = sizes[z][0], cols = sizes[z][1], sld = rows + 2, dld = rows + 3;
                const int herm = d % 2 != 0;
                const tb_part part = up ? TB_PART_UPPER : TB_PART_LOWER;
                double *src = malloc(sizeof(double) * 2 * (size_t)(sld * cols)),
                       *dst = malloc(sizeof(double) * 2 * (size_t)(dld * cols));
                for (int64_t i = 0; i < 2 * sld * cols; i++)
                    src[i] = (double)i + 0.5;
                for (int64_t i = 0; i < 2 * dld * cols; i++)
                    dst[i] = -1.0;
                tb_copy2d_part(dst, dld, src, sld, rows, cols, 16, part, d, herm); /* complex double elements */
                const tb_kproblem p = { .m = rows, .n = cols, .part = part, .diag = d };
                for (int64_t j = 0; j < cols; j++)
                    for (int64_t i = 0; i < dld; i++) {
                        const double *got = &dst[2 * (i + j * dld)];
                        const int in = i < rows && tb_in_part(&p, i, j);
                        const double re = in ? src[2 * (i + j * sld)] : -1.0;
                        const double im = in ? (herm && i + d == j ? 0.0 : src[2 * (i + j * sld) + 1]) : -1.0;
                        tt_assert_msg(got[0] == re && got[1] == im, "%lldx%lld %s d %lld: (%lld, %lld) %g%+gi",
                                      (long long)rows, (long long)cols, up ? "upper" : "lower", (long long)d,
                                      (long long)i, (long long)j, got[0], got[1]);
                    }
                free(src), free(dst);
            }
}
END_TEST

/* A window on a symmetric or Hermitian matrix (tb_copy2d_sym_start): every element from the stored triangle, the
 * other's transposed (conjugated when Hermitian, its diagonal's imaginary parts 0), the other triangle NaN in the
 * source; small copies (the caller's) and large ones (the threads', by columns and, 7 columns, by rows).  Loop
 * index: element size (4, 8 complex float, 16 complex double) x triangle x Hermitian. */
START_TEST(symmetric_window)
{
    const unsigned e = _i / 4 == 0 ? 4 : _i / 4 == 1 ? 8 : 16;
    const int lower = _i / 2 % 2, herm = _i % 2 && e > 4;
    /* complex double: a matrix large enough for a window of 7 columns copied by the threads (by rows: fewer columns
     * than pieces) */
    const int64_t n = e == 16 ? 2400 : 700, ld = n + 3;
    char *x = malloc((size_t)(ld * n) * e), *dst = malloc((size_t)(n * n) * e);
    ck_assert(x && dst);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < ld; i++) { /* each part (a float, or a complex one's two, or a double's two) */
            char *v = x + (i + j * ld) * e;
            const int stored = i < n && (lower ? i >= j : i <= j);
            for (unsigned b = 0; b < e; b += e == 16 ? 8 : 4) {
                const double d = stored ? (double)((i * 31 + j * 17 + b) % 97) - 48.0 : NAN;
                const float f = (float)d;
                memcpy(v + b, e == 16 ? (const void *)&d : &f, e == 16 ? 8 : 4);
            }
        }
    static const int64_t win[][4] = { { 0, 0, 700, 700 }, { 13, 200, 50, 90 }, { 300, 10, 400, 500 },
                                      { 5, 600, 600, 100 }, { 650, 640, 50, 60 },
                                      { 40, 2390, 2350, 7 } }; /* r, c, rows, cols; the last in 2400 only */
    for (size_t t = 0; t < sizeof win / sizeof win[0] - (n < 2400); t++) {
        const int64_t r = win[t][0], c = win[t][1], rows = win[t][2], cols = win[t][3];
        const tb_sym_window w = { r, c, lower, herm };
        tb_copy_job h;
        tb_copy2d_sym_start(&h, dst, rows, x + (r + c * ld) * e, ld, rows, cols, e, &w);
        tb_copy2d_finish(&h);
        for (int64_t j = 0; j < cols; j++)
            for (int64_t i = 0; i < rows; i++) {
                const int64_t R = r + i, C = c + j, stored = lower ? R >= C : R <= C;
                char want[16];
                memcpy(want, x + (stored ? R + C * ld : C + R * ld) * e, e);
                if (herm && !stored)
                    want[e - 1] = (char)(want[e - 1] ^ 0x80);
                if (herm && R == C)
                    memset(want + e / 2, 0, e / 2);
                tt_assert_msg(!memcmp(dst + (i + j * rows) * e, want, e),
                              "size %u lower %d herm %d window %zu: (%lld, %lld) differs", e, lower, herm, t,
                              (long long)i, (long long)j);
            }
    }
    free(x), free(dst);
}
END_TEST

START_TEST(start_then_finish)
{
    enum { ROWS = 1000, COLS = 600 }; /* 2.4 MB: the threads' */
    float *src = malloc(sizeof(float) * ROWS * COLS), *dst = malloc(sizeof(float) * ROWS * COLS);
    ck_assert(src && dst);
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < ROWS * COLS; i++)
            src[i] = (float)(i + round), dst[i] = poison;
        tb_copy_job job;
        tb_copy2d_start(&job, dst, ROWS, src, ROWS, ROWS, COLS, sizeof(float));
        copy_and_check(1023, 777, 1031, 1024);
        tb_copy2d_finish(&job);
        for (int i = 0; i < ROWS * COLS; i++)
            tt_assert_msg(dst[i] == src[i], "round %d: element %d is %g, not %g", round, i, (double)dst[i],
                          (double)src[i]);
    }
    free(src), free(dst);
}
END_TEST

START_TEST(empty_copies_touch_nothing)
{
    float a = 1.0f, b = 2.0f;
    tb_copy2d(&b, 1, &a, 1, 0, 5, sizeof(float));
    tb_copy2d(&b, 1, &a, 1, 5, 0, sizeof(float));
    ck_assert(b == 2.0f);
}
END_TEST

/* tb_touch2d maps exactly the pages of the block and changes nothing: fresh memory (4 KiB pages), columns of 3
 * pages 4 pages apart, a few values written before */
START_TEST(touch_maps_the_block_and_changes_nothing)
{
    const long page = sysconf(_SC_PAGESIZE);
    if (page != 4096) {
        printf("touch: not run (pages of %ld bytes)\n", page);
        return;
    }
    const int64_t ld = 4096, rows = 3072, cols = 200; /* floats: a column 12 KiB, 16 KiB apart */
    const size_t bytes = sizeof(float) * (size_t)(ld * cols);
    float *x = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert(x != MAP_FAILED);
    madvise(x, bytes, MADV_NOHUGEPAGE);
    x[5 * ld + 7] = 3.5f, x[(cols - 1) * ld + rows - 1] = -2.0f;
    tb_touch2d(x, ld, rows, cols, sizeof(float));
    unsigned char *in = malloc(bytes / 4096);
    ck_assert(in && mincore(x, bytes, in) == 0);
    for (int64_t p = 0; p < (int64_t)(bytes / 4096); p++)
        tt_assert_msg((in[p] & 1) == (p % 4 != 3), "page %lld %s", (long long)p, in[p] & 1 ? "mapped" : "not mapped");
    for (int64_t i = 0; i < ld * cols; i++) {
        float want = i == 5 * ld + 7 ? 3.5f : i == (cols - 1) * ld + rows - 1 ? -2.0f : 0.0f;
        tt_assert_msg(x[i] == want, "element %lld is %g", (long long)i, (double)x[i]);
    }
    /* a block that is small, or empty, is touched too, or left */
    tb_touch2d(x + 1, ld, 1, 1, sizeof(float));
    tb_touch2d(x, ld, 0, 5, sizeof(float));
    ck_assert(x[1] == 0.0f);
    free(in);
    munmap(x, bytes);
}
END_TEST

static void *concurrent(void *arg)
{
    int64_t n = (int64_t)(intptr_t)arg;
    for (int r = 0; r < 3; r++)
        copy_and_check(700 + n, 600 + 3 * n, 701 + n, 704 + n);
    return NULL;
}

START_TEST(concurrent_callers)
{
    pthread_t t[6];
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, concurrent, (void *)(intptr_t)i), 0);
    for (int i = 0; i < 6; i++)
        pthread_join(t[i], NULL);
}
END_TEST

/* A large copy of its own, start to finish, on another thread while the test's thread holds a small one open */
typedef struct big_copy {
    float *src, *dst;
    int64_t n;
    int posted; /* handed to the threads */
} big_copy;

static void *copy_big(void *arg)
{
    big_copy *b = arg;
    tb_copy_job job;
    tb_copy2d_start(&job, b->dst, b->n, b->src, b->n, b->n, b->n, sizeof(float));
    b->posted = job.posted;
    tb_copy2d_finish(&job);
    return NULL;
}

/* Callers that copy at once share the threads (the pipelines of a call spread over several devices): a copy made
 * while another caller's is still open is handed to the threads too, not made by its caller alone; both land */
START_TEST(callers_at_once_share_the_threads)
{
    if (tb_copy_threads() < 2) {
        printf("sharing: not run (one copy thread)\n");
        return;
    }
    enum { SMALL = 400, BIG = 1024 }; /* 640 KB held open; 4 MB beside it */
    float *s1 = malloc(sizeof(float) * SMALL * SMALL), *d1 = malloc(sizeof(float) * SMALL * SMALL);
    big_copy b = { malloc(sizeof(float) * BIG * BIG), malloc(sizeof(float) * BIG * BIG), BIG, 0 };
    ck_assert(s1 && d1 && b.src && b.dst);
    for (int64_t i = 0; i < SMALL * SMALL; i++)
        s1[i] = (float)i, d1[i] = poison;
    for (int64_t i = 0; i < (int64_t)BIG * BIG; i++)
        b.src[i] = (float)(3 * i), b.dst[i] = poison;
    tb_copy_job open;
    tb_copy2d_start(&open, d1, SMALL, s1, SMALL, SMALL, SMALL, sizeof(float));
    ck_assert_msg(open.posted, "a 640 KB copy was not handed to the threads");
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, copy_big, &b), 0);
    pthread_join(t, NULL);
    tb_copy2d_finish(&open);
    ck_assert_msg(b.posted, "a copy made beside another caller's was made by its caller alone");
    int64_t bad1 = 0, bad2 = 0; /* the first element that differs, + 1 (check's asserts are slow a call) */
    for (int64_t i = 0; i < SMALL * SMALL && !bad1; i++)
        bad1 = d1[i] != s1[i] ? i + 1 : 0;
    for (int64_t i = 0; i < (int64_t)BIG * BIG && !bad2; i++)
        bad2 = b.dst[i] != b.src[i] ? i + 1 : 0;
    ck_assert_msg(!bad1, "the open copy's element %lld is %g", (long long)bad1 - 1, bad1 ? (double)d1[bad1 - 1] : 0.0);
    ck_assert_msg(!bad2, "the big copy's element %lld is %g", (long long)bad2 - 1,
                  bad2 ? (double)b.dst[bad2 - 1] : 0.0);
    free(s1), free(d1), free(b.src), free(b.dst);
}
END_TEST

START_TEST(threads_start_despite_large_tls)
{
    big_tls[sizeof big_tls - 1] = 1;
    copy_and_check(1500, 1500, 1501, 1504);
    ck_assert_msg(tb_copy_workers() == tb_copy_threads() - 1, "%d of %d copy threads besides the caller started",
                  tb_copy_workers(), tb_copy_threads() - 1);
}
END_TEST

START_TEST(forked_child_copies)
{
    copy_and_check(1500, 1500, 1501, 1504); /* the parent's threads are started */
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        copy_and_check(1400, 1300, 1403, 1400);
        _exit(0);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child failed (status %d)", status);
    copy_and_check(1500, 1500, 1500, 1500);
}
END_TEST

int main(void)
{
    printf("staging copies with %d threads\n", tb_copy_threads());
    Suite *s = suite_create("staging copies");
    TCase *tc = tcase_create("copies");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, threads_start_despite_large_tls);
    tcase_add_test(tc, shapes_and_leading_dimensions);
    tcase_add_test(tc, empty_copies_touch_nothing);
    tcase_add_test(tc, start_then_finish);
    tcase_add_test(tc, part_of_a_block);
    tcase_add_loop_test(tc, symmetric_window, 0, 12);
    tcase_add_test(tc, touch_maps_the_block_and_changes_nothing);
    tcase_add_test(tc, concurrent_callers);
    tcase_add_test(tc, callers_at_once_share_the_threads);
    suite_add_tcase(s, tc);
    TCase *tf = tcase_create("fork");
    tcase_set_timeout(tf, 120);
    tcase_add_test(tf, forked_child_copies);
    suite_add_tcase(s, tf);
    return tt_run_suite(s, CK_NOFORK);
}
