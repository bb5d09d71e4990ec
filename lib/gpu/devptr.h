/*
 * Where a call's operands live: host memory (which the CPU reads: pageable, pinned), or memory of the CUDA device
 * (cudaMalloc'd: only the GPU can read it; managed: both can, the GPU without copies).  A program can only hold
 * device memory once the CUDA driver is loaded in its process, so until then nothing is asked of CUDA (a glance at
 * the list of loaded libraries, about 10 ns); after that the driver is asked about each pointer.
 */
#ifndef TB_DEVPTR_H
#define TB_DEVPTR_H

#include "call.h"

typedef enum tb_where { TB_ON_HOST = 0, TB_ON_DEVICE, TB_MANAGED } tb_where;

/* Operands A, B, C into w[0..2]; returns how many are not TB_ON_HOST.  *device: the CUDA device (its number in
 * the process) that holds those in device memory (TB_ON_DEVICE), TB_NO_DEVICE when none is, TB_MIXED_DEVICES when
 * they are on different devices. */
enum { TB_NO_DEVICE = -1, TB_MIXED_DEVICES = -2 };
TB_HIDDEN int tb_operands_where(const tb_call *g, tb_where w[3], int *device);

#endif
