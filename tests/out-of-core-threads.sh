#!/bin/sh
# tests/out-of-core.sh with 16 staging-copy threads (a test of its own, so that make check runs the two side by side)
TILEBLAS_COPY_THREADS=16 exec sh "${top_srcdir:-.}/tests/out-of-core.sh"
