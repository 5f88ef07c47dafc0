#!/usr/bin/env python3
"""Check vector files against the calculator.

    python3 tests/oracle/compare.py FILE.tsv...              vector lines: op, args, result(s)
    python3 tests/oracle/compare.py --refused FILE.tsv...    inputs CuTe refuses: op, args

Vector mode runs every line `op<TAB>a1<TAB>...<TAB>result(s)` through
`layout --tsv` as `op(a1, ...)` and compares the output with the result
column(s) character for character; it prints each mismatch and a per-file
count, and exits 1 on any mismatch.

Refused mode runs input lines that CuTe does not compile and lists those the
calculator accepts (prints a result instead of `error: ...`), grouped by op;
it exits 0 (the list is informational).

The calculator is build/bin/layout under the repository root unless --calc is given.
Lines starting with `#` and blank lines are skipped.
"""

import argparse
import os
import subprocess
import sys
from collections import OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# ops whose result has two columns (layout, offset / origin)
TWO = {"local_tile", "local_tile_proj", "local_partition", "local_partition_proj",
       "slice", "identity_tensor", "identity_local_tile", "identity_local_tile_proj",
       "identity_local_partition"}

# number of arguments of each op (one more column means the result)
NARGS = {
    "size": 1, "cosize": 1, "rank": 1, "depth": 1, "crd2idx": 2, "idx2crd": 2,
    "make_layout": 1, "make_layout_right": 1, "coalesce": 1, "coalesce_profile": 2,
    "filter": 1, "composition": 2, "composition_tiler": 2, "complement": 2,
    "complement1": 1, "right_inverse": 1, "left_inverse": 1,
    "logical_divide": 2, "zipped_divide": 2, "tiled_divide": 2, "flat_divide": 2,
    "logical_product": 2, "zipped_product": 2, "tiled_product": 2, "flat_product": 2,
    "blocked_product": 2, "raked_product": 2,
    "local_tile": 3, "local_tile_proj": 4, "local_partition": 3,
    "local_partition_proj": 4, "slice": 2, "identity_layout": 1, "identity_tensor": 1,
    "identity_eval": 2, "identity_local_tile": 3, "identity_local_tile_proj": 4, "identity_local_partition": 3,
}


def read_lines(path):
    out = []
    with open(path) as fh:
        for n, raw in enumerate(fh, 1):
            ln = raw.rstrip("\n")
            if not ln.strip() or ln.startswith("#"):
                continue
            out.append((n, ln.split("\t")))
    return out


def run_calc(calc, exprs):
    if not exprs:
        return []
    p = subprocess.run([calc, "--tsv"], input="".join(e + "\n" for e in exprs),
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       universal_newlines=True)
    out = p.stdout.split("\n")
    if out and out[-1] == "":
        out.pop()
    if len(out) != len(exprs):
        sys.exit("%s printed %d lines for %d inputs" % (calc, len(out), len(exprs)))
    return out


def expr(op, args):
    return "%s(%s)" % (op, ", ".join(args))


def split_vector(cols):
    op = cols[0]
    if op not in NARGS:
        return None
    na = NARGS[op]
    nr = 2 if op in TWO else 1
    if len(cols) != 1 + na + nr:
        return None
    return op, cols[1:1 + na], "\t".join(cols[1 + na:])


def check_vectors(calc, files):
    total_bad = 0
    summary = []
    for path in files:
        rows = read_lines(path)
        items, bad_input = [], []
        for n, cols in rows:
            sv = split_vector(cols)
            if sv is None:
                bad_input.append((n, "\t".join(cols)))
            else:
                items.append((n,) + sv)
        got = run_calc(calc, [expr(op, a) for _, op, a, _ in items])
        mism = 0
        for (n, op, a, want), have in zip(items, got):
            if have != want:
                mism += 1
                print("MISMATCH %s:%d\n  expr: %s\n  cute: %s\n  ours: %s"
                      % (path, n, expr(op, a), want, have))
        for n, ln in bad_input:
            print("BAD INPUT %s:%d: %s" % (path, n, ln))
        total_bad += mism + len(bad_input)
        summary.append((path, len(items), len(items) - mism, mism, len(bad_input)))
    print()
    print("%-50s %6s %6s %8s %5s" % ("file", "lines", "agree", "mismatch", "bad"))
    for s in summary:
        print("%-50s %6d %6d %8d %5d" % s)
    return 1 if total_bad else 0


def check_refused(calc, files):
    items = []
    for path in files:
        for n, cols in read_lines(path):
            items.append((path, n, cols[0], cols[1:]))
    got = run_calc(calc, [expr(op, a) for _, _, op, a in items])
    groups = OrderedDict()
    total = OrderedDict()
    for (path, n, op, a), have in zip(items, got):
        total[op] = total.get(op, 0) + 1
        if not have.startswith("error"):
            groups.setdefault(op, []).append((expr(op, a), have))
    acc = sum(len(v) for v in groups.values())
    print("refused by CuTe: %d inputs; accepted by the calculator: %d" % (len(items), acc))
    for op in total:
        v = groups.get(op, [])
        print("  %-26s refused %4d  accepted %4d" % (op, total[op], len(v)))
    for op, v in groups.items():
        print("\n== %s (%d accepted)" % (op, len(v)))
        for e, h in v:
            print("  %s  ->  %s" % (e, h))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--calc", default=os.path.join(ROOT, "build", "bin", "layout"))
    ap.add_argument("--refused", action="store_true",
                    help="files are inputs CuTe refuses; list those the calculator accepts")
    a = ap.parse_args()
    if a.refused:
        return check_refused(a.calc, a.files)
    return check_vectors(a.calc, a.files)


if __name__ == "__main__":
    sys.exit(main())
