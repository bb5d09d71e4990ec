/* The random seed of a test program (no check.h here: tests/harness.c includes it too). */
#ifndef TB_TEST_SEED_H
#define TB_TEST_SEED_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* The random seed of a test program: TILEBLAS_TEST_SEED, else the time and pid; printed so that a failure can be
 * replayed.  Never 0 (xorshift generators need that). */
static inline unsigned long long tt_test_seed(void)
{
    const char *s = getenv("TILEBLAS_TEST_SEED");
    unsigned long long seed =
        s && *s ? strtoull(s, NULL, 0) : (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 32);
    if (!seed)
        seed = 1;
    printf("random seed %llu (replay with TILEBLAS_TEST_SEED=%llu)\n", seed, seed);
    fflush(stdout);
    return seed;
}

#endif
