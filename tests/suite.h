/* Running a check suite the same way in every test program. */
#ifndef TB_TEST_SUITE_H
#define TB_TEST_SUITE_H

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "seed.h"

/* As ck_assert_msg, but calls into check only when expr fails: check records every assertion that holds with a
 * system call (about 1 us), which, made once per element of C, was most of the kernel suites' time */
#define tt_assert_msg(expr, ...)                                                                                       \
    do {                                                                                                               \
        if (!(expr))                                                                                                   \
            ck_abort_msg(__VA_ARGS__);                                                                                 \
    } while (0)

/* TT_KERNELS=name,name...: the suites that go through every kernel test only those (all when unset or empty), to
 * check one kernel in less time */
static inline int tt_kernel_selected(const char *name)
{
    const char *list = getenv("TT_KERNELS");
    const size_t len = strlen(name);
    for (const char *s = list; s && *s; s += strcspn(s, ","), s += *s == ',')
        if (!strncmp(s, name, len) && (s[len] == ',' || !s[len]))
            return 1;
    return !list || !*list;
}

/* Run s (forking a child per test unless fork is CK_NOFORK); the exit status for automake: 0 or 1. */
static inline int tt_run_suite(Suite *s, enum fork_status fork)
{
    SRunner *sr = srunner_create(s);
    if (fork == CK_NOFORK)
        srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}

/* One suite of one test case made of the NULL-terminated tests (each allowed `timeout` seconds; 0: check's
 * default), run as tt_run_suite does. */
static inline int tt_run_tests(const char *suite, const char *tcase, const TTest *const *tests, double timeout,
                               enum fork_status fork)
{
    Suite *s = suite_create(suite);
    TCase *tc = tcase_create(tcase);
    if (timeout > 0)
        tcase_set_timeout(tc, timeout);
    for (; *tests; tests++)
        tcase_add_test(tc, *tests);
    suite_add_tcase(s, tc);
    return tt_run_suite(s, fork);
}

#endif
