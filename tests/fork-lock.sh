#!/bin/sh
# Locks across fork: a child forked while another thread holds the lock under which the BLAS beneath is looked up
# (here: TILEBLAS_CPU_BLAS names a library whose constructor takes half a second) makes its own first call and
# ends; and TILEBLAS_CPU_BLAS naming a FIFO is passed over with one warning instead of waiting for a writer.
. "${top_srcdir:-.}/tests/preamble.sh"
cc=${CC:-cc}
cat >"$work/slow.c" <<'C'
#include <unistd.h>
__attribute__((constructor)) static void slow(void) { usleep(500000); }
C
cat >"$work/prog.c" <<'C'
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
void cblas_sgemm(int, int, int, int, int, int, float, const float *, int, const float *, int, float, float *, int);
void sgemm_(const char *, const char *, const int *, const int *, const int *, const float *, const float *,
            const int *, const float *, const int *, const float *, float *, const int *);
static float a[4] = { 1, 2, 3, 4 }, c[4];
static void *first_call(void *p)
{
    (void)p;
    cblas_sgemm(102, 111, 111, 2, 2, 2, 1.0f, a, 2, a, 2, 0.0f, c, 2);
    return NULL;
}
int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, first_call, NULL);
    usleep(100000); /* the lookup is under way in the thread */
    pid_t pid = fork();
    if (pid == 0) {
        alarm(10);
        int two = 2;
        float one = 1, zero = 0, d[4];
        sgemm_("N", "N", &two, &two, &two, &one, a, &two, a, &two, &zero, d, &two);
        _exit(d[0] == 7.0f && d[3] == 22.0f ? 0 : 3);
    }
    int status;
    waitpid(pid, &status, 0);
    pthread_join(t, NULL);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        printf("child: %s %d\n", WIFEXITED(status) ? "exit" : "signal",
               WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        return 1;
    }
    printf("child ok, parent C[0] = %g\n", c[0]);
    return 0;
}
C
$cc -O1 -shared -fPIC -o "$work/libslow.so" "$work/slow.c" 2>"$work/cc.log" || fail "building libslow" "$work/cc.log"
$cc -O1 -o "$work/prog" "$work/prog.c" $OPENBLAS_LIBS -lpthread 2>"$work/cc.log" || fail "building the program" "$work/cc.log"
LD_PRELOAD=$lib TILEBLAS_CPU_BLAS=$work/libslow.so timeout 60 "$work/prog" >"$work/out" 2>"$work/err" ||
  fail "fork during the lookup" "$work/out" "$work/err"
grep -q '^child ok, parent C\[0\] = 7$' "$work/out" || fail "fork during the lookup: results" "$work/out"
echo "PASS: a child forked during the lookup of the BLAS beneath makes its own call"

mkfifo "$work/fifo"
LD_PRELOAD=$lib TILEBLAS_CPU_BLAS=$work/fifo timeout 60 "$work/prog" >"$work/out" 2>"$work/err"
status=$?
[ $status = 124 ] && fail "TILEBLAS_CPU_BLAS naming a FIFO: the program hung" "$work/err"
[ $status = 0 ] || fail "TILEBLAS_CPU_BLAS naming a FIFO: exit $status" "$work/out" "$work/err"
[ "$(grep -c 'TILEBLAS_CPU_BLAS=.*not a regular file' "$work/err")" = 1 ] ||
  fail "TILEBLAS_CPU_BLAS naming a FIFO: not one warning" "$work/err"
echo "PASS: TILEBLAS_CPU_BLAS naming a FIFO: one warning, the program runs on"
