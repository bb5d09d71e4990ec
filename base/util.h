/* Small shared helpers: monotonic time and the library's only ways of printing. */
#ifndef TB_UTIL_H
#define TB_UTIL_H

#include "base.h"

TB_HIDDEN double tb_now(void); /* seconds, monotonic */

/* "tileblas: ..." on stderr. */
TB_HIDDEN void tb_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A warning printed at most once per process per *flag (a static int owned by the caller). */
TB_HIDDEN void tb_warn_once(_Atomic int *flag, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
