#!/bin/sh
# The kernels' contract (kernels/kernels.h): a kernel touches no process-wide CUDA state and allocates nothing; what
# it needs as workspace, the library allocates (lib/gpu/cuda_ops.c) and frees.  Checked on the sources: no kernel file
# calls CUDA's allocation, memory-pool or device-setting functions.
. "${top_srcdir:-.}/tests/preamble.sh"
calls='cuda(Malloc[A-Za-z]*|Free[A-Za-z]*|MemPool[A-Za-z]*|SetDevice|DeviceSet[A-Za-z]*|DeviceReset|SetDeviceFlags)[[:space:]]*\('
found=$(grep -nE "$calls" "$srcdir"/kernels/*.cu "$srcdir"/kernels/*.cuh "$srcdir"/kernels/*.c 2>/dev/null)
[ -z "$found" ] || { echo "FAIL: kernels that allocate or change CUDA's state:"; echo "$found"; exit 1; }
echo "PASS: no kernel allocates memory, makes a pool or changes a device setting"
