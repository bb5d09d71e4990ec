#!/usr/bin/env python3
"""The static schedule of a kernel's main loop: the stall cycles that ptxas wrote into each instruction's control
bits (bits 41-44 of the second 64-bit word), summed from the last barrier wait before the function's first DMMA to
the first BAR after its last, with the NOPs' share and the cycles a DMMA.  What a warp would take alone, with every
load and barrier already satisfied; what ncu measures beyond it is waiting (doc/NOTES.md).
    python3 bench/sass-stalls.py FILE.sass PATTERN     (FILE.sass: `cuobjdump -sass` output; PATTERN: a regular
                                                        expression for the function's name)
"""
import re
import sys


def instructions(path, pat):
    """(opcode, second word) of each instruction of the first function whose name matches pat"""
    out, on, want_hi = [], False, False
    for line in open(path):
        if 'Function :' in line:
            if out:
                break
            on = re.search(pat, line.split('Function :')[1].strip()) is not None
            continue
        if not on:
            continue
        m = re.match(r'\s*/\*[0-9a-f]{4,}\*/\s*(.*?)\s*;?\s*/\*\s*0x[0-9a-f]+\s*\*/', line)
        if m:
            words = m.group(1).split()
            out.append([words[1] if words[0].startswith('@') else words[0], None])
            want_hi = True
            continue
        m = re.match(r'\s*/\*\s*(0x[0-9a-f]+)\s*\*/', line)
        if m and want_hi:
            out[-1][1], want_hi = int(m.group(1), 16), False
    return out


def main():
    ins = instructions(sys.argv[1], sys.argv[2])
    ops = [op for op, _ in ins]
    dmma = [k for k, op in enumerate(ops) if op.startswith('DMMA')]
    if not dmma:
        sys.exit('no DMMA in a function matching ' + sys.argv[2])
    lo = max(k for k in range(dmma[0]) if ops[k].startswith(('SYNCS', 'BAR')))
    hi = next(k for k in range(dmma[-1], len(ops)) if ops[k].startswith('BAR'))
    stall = [(ins[k][1] >> 41) & 0xF for k in range(lo, hi + 1)]
    nops = sum(s for s, k in zip(stall, range(lo, hi + 1)) if ops[k] == 'NOP')
    n = sum(1 for k in range(lo, hi + 1) if ops[k].startswith('DMMA'))
    print('%d instructions, %d DMMA, %d stall cycles (NOPs %d), %.1f a DMMA' % (hi - lo + 1, n, sum(stall), nops,
                                                                               sum(stall) / n))


main()
