# TB_CHECK_OPENBLAS: the reference BLAS the tests and the demo link directly (pkg-config openblas, else -lopenblas).
# The library itself never links a BLAS: it finds one at run time (lib/cpu/cpu_blas.c).
AC_DEFUN([TB_CHECK_OPENBLAS], [
  PKG_CHECK_MODULES([OPENBLAS], [openblas], [], [
    AC_CHECK_LIB([openblas], [cblas_sgemm], [OPENBLAS_LIBS=-lopenblas; OPENBLAS_CFLAGS=],
      [AC_MSG_ERROR([OpenBLAS not found (pkg-config openblas or -lopenblas); Debian: apt-get install libopenblas-dev])])
  ])
])
