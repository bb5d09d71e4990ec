/* The core: a call in, its path decided (lib/decide/), run there (lib/gpu/, lib/cpu/), told to the statistics
 * (lib/obs/).  compat/ calls it; nothing below it calls back. */
#ifndef TB_CORE_H
#define TB_CORE_H

#include "call.h"

/* g is valid as the reference BLAS checks it (compat/ forwards the calls that are not, and the tiny ones of
 * lib/decide/tiny.h). */
TB_HIDDEN void tb_call_run(const tb_call *g);

/* The program asked for the statistics (include/tileblas.h): every call is timed and counted from now on. */
TB_HIDDEN void tb_core_stats_asked(void);

#endif
