/* The entry points' table (entries.h). */
#include <config.h>
#include <stddef.h>
#include "entries.h"

const tb_entry tb_entries[TB_ENTRY_COUNT] = {
#define ROW(id, name, abi, width, type, routine, fallback) \
    [TB_E_##id] = { #name, TB_ABI_##abi, TB_WIDTH_##width, TB_TYPE_##type, TB_ROUTINE_##routine, fallback },
    TB_ENTRY_LIST(ROW)
#undef ROW
};
