/* The entry points' table (entries.h). */
#include <config.h>
#include <stddef.h>
#include <string.h>
#include "entries.h"

const tb_entry tb_entries[TB_ENTRY_COUNT] = {
#define ROW(id, name, abi, width, type, routine, fallback) \
    [TB_E_##id] = { #name, TB_ABI_##abi, TB_WIDTH_##width, TB_TYPE_##type, TB_ROUTINE_##routine, fallback },
    TB_ENTRY_LIST(ROW)
#undef ROW
};

int tb_entry_sibling(tb_entry_id entry, tb_routine routine)
{
    const tb_entry *e = &tb_entries[entry];
    const int scipy = !strncmp(e->name, "scipy_", 6);
    for (int i = 0; i < TB_ENTRY_COUNT; i++) {
        const tb_entry *s = &tb_entries[i];
        if (s->routine == routine && s->type == e->type && s->abi == e->abi && s->width == e->width &&
            (strncmp(s->name, "scipy_", 6) == 0) == scipy)
            return i;
    }
    return -1;
}
