#include <config.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "counters.h"
#include "env.h"
#include "kernels.h"
#include "stats.h"
#include "util.h"

__thread tileblas_call_info tb_stats_last_call;

/* "device 0", "devices 0,1": the devices of a mask (tb_device_bit), "" for none */
static void devices_text(unsigned mask, char *out, size_t size)
{
    int n = 0;
    out[0] = 0;
    for (int d = 0; d < TB_COUNT_DEVICES; d++)
        n += mask >> d & 1;
    size_t at = (size_t)snprintf(out, size, n ? n > 1 ? " devices " : " device " : "");
    for (int d = 0, first = 1; d < TB_COUNT_DEVICES && at < size; d++)
        if (mask >> d & 1) {
            at += (size_t)snprintf(out + at, size - at, "%s%d", first ? "" : ",", d);
            first = 0;
        }
}

static void log_call(const tb_call *g, const tb_call_record *r, double flops)
{
    char call[160], where[320], on[64], recipe[128] = "";
    if (r->recipe[0])
        snprintf(recipe, sizeof recipe, " (%s)", r->recipe);
    g->via->describe(g, call, sizeof call);
    devices_text(r->devices, on, sizeof on);
    if (r->path == TB_PATH_NONE)
        snprintf(where, sizeof where, "quick return");
    else if (r->path == TB_PATH_GPU)
        snprintf(where, sizeof where, "gpu%s %s%s %s %.3f ms %.2f TFLOP/s", on, tb_kernel_names[r->kernel], recipe,
                 tb_kernel_math_name(r->kernel, g->p.type), 1e3 * r->seconds,
                 r->seconds > 0 ? 1e-12 * flops / r->seconds : 0.0);
    else
        snprintf(where, sizeof where, "cpu%s %.3f ms %.2f TFLOP/s", r->gpu_failed ? " (after GPU failure)" : "",
                 1e3 * r->seconds, r->seconds > 0 ? 1e-12 * flops / r->seconds : 0.0);
    char host[112] = "";
    const tb_pipe_times *h = &r->host;
    if (h->copy_in + h->copy_out + h->wait > 0)
        snprintf(host, sizeof host, "; host: copies in %.3f ms, out %.3f ms, waits for the GPU %.3f ms",
                 1e3 * h->copy_in, 1e3 * h->copy_out, 1e3 * h->wait);
    char why[96] = "";
    if (r->in_place)
        snprintf(why, sizeof why, " (operands in device memory used in place)");
    else if (r->predicted.gpu > 0)
        snprintf(why, sizeof why, " (predicted gpu %.3f ms, cpu %.3f ms)", 1e3 * r->predicted.gpu,
                 1e3 * r->predicted.cpu);
    tb_msg("%s %s -> %s%s%s", tb_entries[g->entry].name, call, where, host, why);
}

/* the counters and the thread's last call */
static void count(tb_entry_id entry, tb_path path, const char *kernel, double flops, double seconds, double bytes,
                  int gpu_failed, int tc)
{
    tb_counts_add(entry, path, flops, seconds, bytes, gpu_failed | tc << 1);
    tb_stats_last_call.path = (tileblas_path)path;
    tb_stats_last_call.kernel = kernel;
    tb_stats_last_call.gpu_failed = gpu_failed;
}

void tb_stats_record(const tb_call *g, const tb_call_record *r)
{
    double flops = r->path == TB_PATH_NONE ? 0.0 : r->flops;
    const int gpu = r->path == TB_PATH_GPU;
    const int tc = gpu && !strcmp(tb_kernel_math_name(r->kernel, g->p.type), tb_math_names[TB_MATH_FP32_TC]);
    count(g->entry, r->path, gpu ? tb_kernel_names[r->kernel] : NULL, flops, r->seconds, r->bytes, r->gpu_failed, tc);
    if (r->devices)
        tb_counts_devices(r->devices);
    if (tb_config_get()->verbose >= 1)
        log_call(g, r, flops);
}

_Atomic int tb_stats_asked_for;

int tb_stats_timing_wanted(void)
{
    return tb_stats_asked_for || tb_config_get()->watched;
}

void tb_stats_get(tileblas_stats *out)
{
    tb_stats_asked_for = 1;
    memset(out, 0, sizeof *out);
    tb_counts all;
    tb_counts_sum(&all);
    const tb_counter(*count)[3] = all.c;
    for (int i = 0; i < TB_ENTRY_COUNT; i++) {
        out->quick_returns += count[i][TB_PATH_NONE].calls;
        out->cpu_calls += count[i][TB_PATH_CPU].calls;
        out->cpu_flops += count[i][TB_PATH_CPU].flops;
        out->cpu_seconds += count[i][TB_PATH_CPU].seconds;
        out->gpu_failures += count[i][TB_PATH_CPU].gpu_failures;
        out->gpu_calls += count[i][TB_PATH_GPU].calls;
        out->gpu_flops += count[i][TB_PATH_GPU].flops;
        out->gpu_seconds += count[i][TB_PATH_GPU].seconds;
    }
}

void tb_stats_reset(void)
{
    tb_stats_asked_for = 1;
    tb_counts_reset();
}

void tb_stats_last(tileblas_call_info *out)
{
    *out = tb_stats_last_call;
}

static void summary_line(const char *what, const tb_counter *c)
{
    if (!c->calls)
        return;
    char moved[48] = "";
    if (c->bytes > 0)
        snprintf(moved, sizeof moved, " %10.3f GB moved", 1e-9 * c->bytes);
    char math[64] = "";
    if (c->fp32_tc)
        snprintf(math, sizeof math, "  (%llu in fp32-tc)", c->fp32_tc);
    tb_msg("  %-12s %6llu calls %10.3f GFLOP %10.3f s %8.3f TFLOP/s%s%s%s", what, c->calls, 1e-9 * c->flops,
           c->seconds, c->seconds > 0 ? 1e-12 * c->flops / c->seconds : 0.0, moved, math,
           c->gpu_failures ? "  (some after a GPU failure)" : "");
}

void tb_stats_summary(const tb_summary_facts *facts)
{
    const tb_config *cfg = tb_config_get();
    tb_counter all[3] = { { 0 } };
    tb_counts sum;
    tb_counts_sum(&sum);
    const tb_counter(*count)[3] = sum.c;
    /* Under tileblas-run every process the program starts inherits the request: those that made no call stay
     * quiet, and those that did say which they are.  The program itself (same pid: it was exec'd) always reports. */
    int calls = 0;
    for (int i = 0; i < TB_ENTRY_COUNT; i++)
        calls |= count[i][0].calls || count[i][1].calls || count[i][2].calls;
    int the_program = !cfg->run_pid || cfg->run_pid == (long long)getpid();
    if (!calls && (!the_program || tb_counts_forked()))
        return; /* a child forked from a process that called, and made no call itself: its parent reports */
    if (the_program)
        tb_msg("summary of BLAS calls:");
    else
        tb_msg("summary of BLAS calls (process %lld, started by the program):", (long long)getpid());
    for (int i = 0; i < TB_ENTRY_COUNT; i++) {
        for (int p = 0; p < 3; p++) {
            all[p].calls += count[i][p].calls;
            all[p].flops += count[i][p].flops;
            all[p].seconds += count[i][p].seconds;
            all[p].bytes += count[i][p].bytes;
            all[p].gpu_failures += count[i][p].gpu_failures;
        }
        if (!count[i][0].calls && !count[i][1].calls && !count[i][2].calls)
            continue;
        tb_msg(" %s:", tb_entries[i].name);
        summary_line("GPU", &count[i][TB_PATH_GPU]);
        summary_line("CPU", &count[i][TB_PATH_CPU]);
        summary_line("quick return", &count[i][TB_PATH_NONE]);
    }
    tb_msg(" total: %llu calls, %llu on the GPU, %llu on the CPU, %llu quick returns",
           all[0].calls + all[1].calls + all[2].calls, all[TB_PATH_GPU].calls, all[TB_PATH_CPU].calls,
           all[TB_PATH_NONE].calls);
    double flops = all[TB_PATH_GPU].flops + all[TB_PATH_CPU].flops;
    double seconds = all[TB_PATH_GPU].seconds + all[TB_PATH_CPU].seconds;
    /* the rate over the time with any call in progress: calls of concurrent threads overlap */
    tb_msg(" total: %.3f GFLOP in %.3f s of calls, %.3f s with any in progress: %.3f TFLOP/s effective; %.3f GB moved "
           "between host and device",
           1e-9 * flops, seconds, sum.busy, sum.busy > 0 ? 1e-12 * flops / sum.busy : 0.0, 1e-9 * all[TB_PATH_GPU].bytes);
    const char *text = facts->gpu_text;
    const int gpu = facts->gpu;
    if (gpu > 0)
        tb_msg(" GPU: %s", text);
    else if (gpu < 0)
        tb_msg(" GPU: none usable (%s); calls ran on the CPU", text);
    else
        tb_msg(" GPU: not initialised (no call was routed to it)");
    char by[256] = "";
    for (int d = 0, at = 0; d < TB_COUNT_DEVICES && at < (int)sizeof by; d++)
        if (sum.device_calls[d])
            at += snprintf(by + at, sizeof by - (size_t)at, "%s%d: %llu", at ? ", " : "", d, sum.device_calls[d]);
    if (by[0])
        tb_msg(" GPU calls by device (a call spread over several counts on each): %s", by);
    for (int i = 0; i < TB_ENTRY_COUNT; i++)
        for (int n = 0; facts->cpu_blas_name((tb_entry_id)i, n); n++)
            tb_msg(" CPU BLAS for %s%s: %s", tb_entries[i].name, n ? " (other callers)" : "",
                   facts->cpu_blas_name((tb_entry_id)i, n));
    tb_msg(" cost model of auto mode: %s", cfg->cost_source[0] ? cfg->cost_source : "built-in (no calibration file)");
}
