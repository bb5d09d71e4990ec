# AX_TB_PTHREAD: -pthread for compiling and linking (glibc >= 2.34 has it in libc, older needs -lpthread)
AC_DEFUN([AX_TB_PTHREAD], [
  AC_SEARCH_LIBS([pthread_once], [pthread], [],
    [AC_MSG_ERROR([POSIX threads are required])])
])
