#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "spread.h"

/* side (m or n) cut into at most `count` blocks of whole multiples of TB_SPREAD_ALIGN, as even as that allows (the
 * last one the rest): their starts into start[0 .. returned], their number returned */
static int cut(int64_t side, int count, int64_t *start)
{
    const int64_t units = (side + TB_SPREAD_ALIGN - 1) / TB_SPREAD_ALIGN;
    if (count > units)
        count = units > 0 ? (int)units : 1;
    for (int d = 0; d <= count; d++) {
        const int64_t at = units * d / count * TB_SPREAD_ALIGN;
        start[d] = at < side ? at : side;
    }
    return count;
}

double tb_spread_predict(const tb_cost_params *c, const tb_kproblem *p, int tc, int count, int by_rows)
{
    const double m = (double)p->m, n = (double)p->n, k = (double)p->k;
    const int reads_c = !tb_beta_zero(p);
    const double fixed = c->gpu_call + c->gpu_extra[p->type];
    if (count <= 1)
        return fixed + tb_cost_link(c, p->type, m * k, k * n, m * n, reads_c) + tb_cost_kernel(c, p->type, m, n, k, tc);
    int64_t start[TB_MAX_DEVICES + 1];
    count = cut(by_rows ? p->m : p->n, count > TB_MAX_DEVICES ? TB_MAX_DEVICES : count, start);
    double w = 0; /* the widest block */
    for (int d = 0; d < count; d++)
        w = (double)(start[d + 1] - start[d]) > w ? (double)(start[d + 1] - start[d]) : w;
    /* the busiest device's link and product; the bytes of every staging copy, the shared operand once a device */
    double link, kernel, host;
    if (by_rows) {
        link = tb_cost_link(c, p->type, w * k, k * n, w * n, reads_c);
        kernel = tb_cost_kernel(c, p->type, w, n, k, tc);
        host = m * k + count * k * n;
    } else {
        link = tb_cost_link(c, p->type, m * k, k * w, m * w, reads_c);
        kernel = tb_cost_kernel(c, p->type, m, w, k, tc);
        host = count * m * k + k * n;
    }
    host = tb_type_size(p->type) * (host + m * n * (reads_c ? 2 : 1)) / c->host_copy;
    return fixed + (count - 1) * c->device_call + (link > host ? link : host) + kernel;
}

void tb_spread_plan(const tb_cost_params *c, const tb_kproblem *p, int tc, int devices, tb_spread *s)
{
    /* the operand every device needs whole: the smaller of op(A) (m x k) and op(B) (k x n) */
    const int by_rows = p->m > p->n;
    const double one = tb_spread_predict(c, p, tc, 1, by_rows);
    int best = 1;
    double best_t = one;
    for (int d = 2; d <= devices && d <= TB_MAX_DEVICES; d++) {
        const double t = tb_spread_predict(c, p, tc, d, by_rows);
        if (t < best_t)
            best = d, best_t = t;
    }
    if (best_t > 0.9 * one)
        best = 1, best_t = one;
    s->by_rows = by_rows;
    s->count = cut(by_rows ? p->m : p->n, best, s->start);
    s->predicted = best_t;
}
