/* What the tests of every name of a routine share (tests/test_rankk.c, test_symm.c): the eight kinds of name,
 * OpenBLAS to compare with, random numbers from the printed seed, and the program's own error handlers of the
 * scipy_ names, which tileblas finds with dlsym (the program is linked -export-dynamic) and which record what they
 * are told in tt_said and tt_said_info. */
#ifndef TB_TEST_NAMES_H
#define TB_TEST_NAMES_H

#include <check.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "seed.h"
#include "suite.h"

/* prefix and suffix of each kind of name, in base/entries.h's order */
static const char *const tt_forms[8][2] = { { "cblas_", "" },       { "", "_" },
                                            { "cblas_", "64_" },    { "", "_64_" },
                                            { "scipy_cblas_", "64_" }, { "scipy_", "_64_" },
                                            { "scipy_cblas_", "" }, { "scipy_", "_" } };
#define FORM_CBLAS(f) ((f) % 2 == 0)
#define FORM_WIDE(f) ((f) >= 2 && (f) <= 5)

/* routine r (lower case, with its type's prefix p) under kind of name form, from h */
static inline void *tt_symbol(void *h, char p, const char *r, int form)
{
    char name[64];
    snprintf(name, sizeof name, "%s%c%s%s", tt_forms[form][0], p, r, tt_forms[form][1]);
    void *f = dlsym(h, name);
    ck_assert_msg(f != NULL, "%s not found", name);
    return f;
}

static inline void *tt_openblas(void)
{
    void *h = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    ck_assert_msg(h != NULL, "libopenblas.so.0: %s", dlerror());
    return h;
}

/* uniform in [-1, 1), from tt_state (set it from tt_test_seed) */
static uint64_t tt_state;
static inline double tt_uniform(void)
{
    tt_state ^= tt_state << 13, tt_state ^= tt_state >> 7, tt_state ^= tt_state << 17;
    return (double)(tt_state >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static char tt_said[16];
static long long tt_said_info;
void scipy_xerbla_(const char *name, const int *info, size_t len);
void scipy_xerbla_(const char *name, const int *info, size_t len)
{
    snprintf(tt_said, sizeof tt_said, "%.*s", (int)len, name), tt_said_info = *info;
}
void scipy_xerbla_64_(const char *name, const int64_t *info, size_t len);
void scipy_xerbla_64_(const char *name, const int64_t *info, size_t len)
{
    snprintf(tt_said, sizeof tt_said, "%.*s", (int)len, name), tt_said_info = *info;
}

/* main's suite of a routine family's test: every name (n_names loop cases), the GPU (n_gpu), the statistics and the
 * invalid calls, in one process (the GPU's set-up once: a fork per case set it up again and again, minutes on a
 * busy GPU host), C in blocks of at most 4 MB of device memory (set before the first call reads the configuration) */
static inline int tt_names_suite(const char *suite, const TTest *names, int n_names, const TTest *gpu, int n_gpu,
                                 const TTest *stats, const TTest *invalid)
{
    tt_state = tt_test_seed();
    setenv("TILEBLAS_GPU_MEMORY", "4M", 1);
    Suite *s = suite_create(suite);
    TCase *tc = tcase_create("vs OpenBLAS");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, names, 0, n_names);
    tcase_add_loop_test(tc, gpu, 0, n_gpu);
    tcase_add_test(tc, stats);
    tcase_add_test(tc, invalid);
    suite_add_tcase(s, tc);
    return tt_run_suite(s, CK_NOFORK);
}

#endif
