#!/bin/sh
# Several GPUs (tests/test_devices): as it is, then within 24 MiB of device memory a device, so that each device
# computes its block of C tile by tile (the suite's largest operands take 24 to 98 MB).  SKIP (77) as the suite
# does (fewer than two devices), or where it was not built (no CUDA).
set -u
suite="${top_builddir:-.}/tests/test_devices"
if [ ! -x "$suite" ]; then
  echo "SKIP: tests/test_devices not built (no CUDA)"
  exit 77
fi
"$suite" || exit $?
TILEBLAS_GPU_MEMORY=24M "$suite" || exit $?
echo "PASS: several GPUs, as they are and within 24 MiB of device memory each"
