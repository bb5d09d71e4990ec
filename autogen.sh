#!/bin/sh
# Regenerate the build system (configure, Makefile.in, libtool scripts) from a git checkout.
set -e
cd "$(dirname "$0")"
autoreconf --install --force
