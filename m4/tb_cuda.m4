# TB_CHECK_CUDA: find the CUDA toolkit (nvcc, headers, the shared runtime).
#   --with-cuda=DIR   toolkit root (default /usr/local/cuda); --without-cuda builds the CPU-only library
#   --with-cuda-arch  real architectures, comma separated (default 90); PTX for the highest is embedded too
# Sets NVCC, NVCC_ARCH_FLAGS, CUDA_CPPFLAGS, CUDA_LIBS and the HAVE_CUDA conditional and define.
AC_DEFUN([TB_CHECK_CUDA], [
  AC_ARG_WITH([cuda],
    [AS_HELP_STRING([--with-cuda=DIR], [CUDA toolkit root (default /usr/local/cuda); --without-cuda for a CPU-only build])],
    [], [with_cuda=check])
  AC_ARG_WITH([cuda-arch],
    [AS_HELP_STRING([--with-cuda-arch=LIST], [comma-separated SM versions to build machine code for (default 90); PTX of the last is embedded])],
    [], [with_cuda_arch=90])
  have_cuda=no
  tb_cuda_summary="no (CPU-only library)"
  AS_IF([test "x$with_cuda" != xno], [
    AS_IF([test "x$with_cuda" = xcheck || test "x$with_cuda" = xyes], [cuda_dir=/usr/local/cuda], [cuda_dir=$with_cuda])
    AC_PATH_PROG([NVCC], [nvcc], [no], [$cuda_dir/bin$PATH_SEPARATOR$PATH])
    tb_cuda_libdir=
    for d in "$cuda_dir/lib64" "$cuda_dir/lib" "$cuda_dir/targets/x86_64-linux/lib"; do
      AS_IF([test -f "$d/libcudart.so"], [tb_cuda_libdir=$d; break])
    done
    AS_IF([test "x$NVCC" != xno && test -f "$cuda_dir/include/cuda_runtime_api.h" && test -n "$tb_cuda_libdir"],
      [have_cuda=yes],
      [AS_IF([test "x$with_cuda" = xcheck],
         [AC_MSG_WARN([CUDA toolkit not found under $cuda_dir (need bin/nvcc, include/cuda_runtime_api.h, lib64/libcudart.so): building the CPU-only library])],
         [AC_MSG_ERROR([CUDA toolkit not usable under $cuda_dir: need bin/nvcc, include/cuda_runtime_api.h and lib64/libcudart.so])])])
  ])
  AS_IF([test "x$have_cuda" = xyes], [
    CUDA_CPPFLAGS="-I$cuda_dir/include"
    # The shared runtime, found where it was at build time: only the GPU module (tileblas-gpu.so) links it, and
    # that is loaded on the first call that may use the GPU.  The static runtime cannot be: its thread-local
    # storage is initial-exec, which a library loaded after start-up cannot have.  No C++ runtime: the .cu files
    # are built without exceptions and thread-safe statics (Makefile.am), the only things of it that nvcc's host
    # stubs used.
    CUDA_LIBS="-L$tb_cuda_libdir -lcudart -Wl,-rpath,$tb_cuda_libdir"
    NVCC_ARCH_FLAGS=
    tb_last_arch=
    for a in `echo "$with_cuda_arch" | tr ',' ' '`; do
      NVCC_ARCH_FLAGS="$NVCC_ARCH_FLAGS -gencode=arch=compute_$a,code=sm_$a"
      tb_last_arch=$a
    done
    AS_IF([test -z "$tb_last_arch"], [AC_MSG_ERROR([--with-cuda-arch needs at least one SM version])])
    NVCC_ARCH_FLAGS="$NVCC_ARCH_FLAGS -gencode=arch=compute_$tb_last_arch,code=compute_$tb_last_arch"
    AC_DEFINE([HAVE_CUDA], [1], [Define to 1 when the CUDA kernels and runtime are built in])
    tb_cuda_summary="yes ($cuda_dir, sm: $with_cuda_arch + PTX)"
  ])
  AC_SUBST([CUDA_CPPFLAGS])
  AC_SUBST([CUDA_LIBS])
  AC_SUBST([NVCC_ARCH_FLAGS])
  AC_ARG_VAR([NVCCFLAGS], [extra flags for nvcc])
  AM_CONDITIONAL([HAVE_CUDA], [test "x$have_cuda" = xyes])
])
