/* How the chosen kernel runs a problem on a device (kernels/recipe.h): the one place that classifies shapes. */
#ifndef TB_DECIDE_RECIPES_H
#define TB_DECIDE_RECIPES_H

#include "kernels.h"

/* *r for `family`'s kernel on p with operands in `form` (TB_FORM_*) on d's device; r->decider = d.  Also the
 * decider's own function (tb_decider_of). */
TB_HIDDEN void tb_decide_recipe(const tb_decider *d, tb_family family, int form, const tb_kproblem *p, tb_recipe *r);

/* The decider for a device of facts f (which must outlive it) */
static inline tb_decider tb_decider_of(const tb_device_facts *f)
{
    return (tb_decider){ f, tb_decide_recipe };
}

/* r, a recipe of `family`, in words (TILEBLAS_VERBOSE=2): the tile and split of k, the parts, the tensor cores or
 * not, the complex forms; "" for a family that decides nothing */
TB_HIDDEN void tb_recipe_text(tb_family family, const tb_recipe *r, char *buf, size_t size);

/* The kernel that runs p when `kernel` is asked for on d's device: kernel itself, or where its recipe keeps p off
 * the tensor cores, the kernel its row names instead (kernels/list.h), and so on; -1 for -1 */
TB_HIDDEN int tb_decide_kernel(int kernel, const tb_kproblem *p, const tb_decider *d);

#endif
