#!/usr/bin/env python3
"""The book's live examples, as CuTe oracle inputs, and the check that every one was asked.

    python3 tests/oracle/book_examples.py inputs [CHAPTER.md...]   > IN.tsv
    python3 tests/oracle/book_examples.py split  OUT.tsv             (the oracle's answers)
    python3 tests/oracle/book_examples.py check  [CHAPTER.md...]

A live example is a line `expression [=> result]` of a ```layout block in a chapter
(chapters/filters/live.lua). `inputs` writes each distinct expression as an oracle input line
(`op<TAB>arg<TAB>...`, the notation of tests/data/cute/FORMAT.md), spelling the calculator's
conveniences as the oracle's ops: a composition with a tiler is `composition_tiler`, a coalesce
with a profile `coalesce_profile`, a complement without a cotarget `complement1`, a local_tile or
local_partition with a projection `local_tile_proj` or `local_partition_proj`.  The oracle
answers them (`generate --keep-failures`), and `split` sorts its answers into
tests/data/oracle/book_examples.tsv (computed), book_refused.tsv (refused by CuTe) and
degenerate_book.tsv (computed by CuTe from dynamic values that break its preconditions, which the
library refuses instead: tests/data/oracle/README.md), which the library and calculator checks run
like every other vector file.

`check` fails for every live example that is not in those files: an example shown in the book
must have been asked of real CuTe.  `identity_local_partition`, which the oracle lacks, is
asked by tests/oracle/identity_partition.cpp, whose answers are cute_identity_partition.tsv.
An example whose stated result is an error must be one CuTe refuses, and one that states a
result must be one CuTe computes.  Operations the oracle does not
know (`swizzle`), and expressions with a nested call, are counted and skipped.
"""

import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(ROOT, "tests", "data", "oracle")
sys.path.insert(0, HERE)
from compare import NARGS, TWO  # noqa: E402  (the op table of the vector files)

# the operations whose examples must have been asked of CuTe: the oracle's, and
# identity_local_partition, which tests/oracle/identity_partition.cpp asks instead
CHECKED_OPS = set(NARGS)


def split_top(s, sep=","):
    """Split s at the separators that are outside parentheses."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    out.append(cur.strip())
    return out


def is_layout(arg):
    return len(split_top(arg, ":")) == 2


def examples(paths):
    """Yield (path, line number, expression, stated result or None) for every live example."""
    fence = re.compile(r"^\s*```+\s*layout\s*$")
    for path in paths:
        inside = False
        with open(path, encoding="utf-8") as fh:
            for n, raw in enumerate(fh, 1):
                line = raw.rstrip("\n")
                if not inside:
                    inside = bool(fence.match(line))
                    continue
                if line.strip().startswith("```"):
                    inside = False
                    continue
                text = line.strip()
                if not text or text.startswith("#"):
                    continue
                expr, _, want = text.partition(" => ")
                yield path, n, expr.strip(), (want.strip() if want else None)


def oracle_line(expr):
    """The oracle input columns for a calculator expression, or None (not an oracle op)."""
    m = re.match(r"^([a-z_0-9]+)\((.*)\)$", expr)
    if not m:
        return None
    op, args = m.group(1), split_top(m.group(2))
    if op == "composition" and len(args) == 2 and not is_layout(args[1]):
        op = "composition_tiler"
    elif op == "coalesce" and len(args) == 2:
        op = "coalesce_profile"
    elif op == "complement" and len(args) == 1:
        op = "complement1"
    elif op in ("local_tile", "local_partition", "identity_local_tile") and len(args) == 4:
        op += "_proj"
    if any(re.search(r"[a-z]\(", a) for a in args):
        return None                    # a nested call: the oracle takes literal arguments
    if op not in CHECKED_OPS:
        return None
    return [op] + args


def load(path):
    """The rows of a vector file, as tuples of columns."""
    keys = set()
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            for raw in fh:
                cols = raw.rstrip("\n").split("\t")
                if not raw.strip() or raw.startswith("#"):
                    continue
                keys.add(tuple(cols))
    return keys


def split(out_path):
    """Sort the oracle's answers by whether CuTe computed them and the calculator agrees."""
    import subprocess
    calc = os.environ.get("LAYOUT", os.path.join(ROOT, "build", "bin", "layout"))
    computed, refused, degenerate = [], [], []
    with open(out_path, encoding="utf-8") as fh:
        for raw in fh:
            line = raw.rstrip("\n")
            if line.startswith("#BUILD\t") or line.startswith("#RUNTIME\t"):
                cols = line.split("\t")[1:]
                refused.append(cols[:1 + NARGS[cols[0]]])
            elif line and not line.startswith("#"):
                computed.append(line.split("\t"))
    keep = []
    for cols in computed:
        nres = 2 if cols[0] in TWO else 1
        expr = "%s(%s)" % (cols[0], ", ".join(cols[1:len(cols) - nres]))
        out = subprocess.run([calc, "--tsv", expr], capture_output=True, text=True).stdout.strip()
        (degenerate if out.startswith("error:") else keep).append(cols)
    for name, rows in (("book_examples.tsv", keep), ("book_refused.tsv", refused),
                       ("degenerate_book.tsv", degenerate)):
        with open(os.path.join(DATA, name), "w", encoding="utf-8") as fh:
            for cols in rows:
                fh.write("\t".join(cols) + "\n")
        print("%s: %d lines" % (name, len(rows)))
    return 0


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("inputs", "split", "check"):
        sys.stderr.write(__doc__)
        return 2
    paths = sys.argv[2:] or sorted(glob.glob(os.path.join(ROOT, "chapters", "[0-9][0-9]_*.md")))
    if sys.argv[1] == "inputs":
        seen = set()
        for _, _, expr, _ in examples(paths):
            cols = oracle_line(expr)
            if cols and cols[0] == "identity_local_partition":
                continue                 # the oracle lacks it: add a case to identity_partition.cpp
            if cols and tuple(cols) not in seen:
                seen.add(tuple(cols))
                print("\t".join(cols))
        return 0
    if sys.argv[1] == "split":
        return split(sys.argv[2])
    # every example asked, by op + arguments: "computed", "refused" or "degenerate" (a computed
    # line is op, args..., result(s), so it is indexed by each prefix that could be op + args)
    asked = {}

    def index(paths, kind):
        for path in paths:
            for cols in load(path):
                ends = [len(cols)] if kind == "refused" else range(2, len(cols))
                for k in ends:
                    asked.setdefault(tuple(cols[:k]), kind)

    index([os.path.join(DATA, "book_examples.tsv")] + sorted(glob.glob(os.path.join(DATA, "cute_*.tsv"))),
          "computed")
    index([os.path.join(DATA, "book_refused.tsv")], "refused")
    index(sorted(glob.glob(os.path.join(DATA, "degenerate_*.tsv"))), "degenerate")
    bad = n = skipped = 0
    for path, line, expr, want in examples(paths):
        cols = oracle_line(expr)
        where = "%s:%d" % (os.path.relpath(path, ROOT), line)
        if cols is None:
            skipped += 1
            continue
        n += 1
        got = asked.get(tuple(cols))
        is_error = want is not None and want.startswith("error:")
        if got is None:
            print("not ok - %s: %s was not asked of CuTe (tests/oracle/book_examples.py inputs; "
                  "tests/data/oracle/README.md)" % (where, expr))
            bad += 1
        elif not is_error and got == "degenerate":
            print("not ok - %s: CuTe computes %s from values that break its preconditions, "
                  "which the library refuses" % (where, expr))
            bad += 1
        elif is_error and got == "computed":
            print("not ok - %s: the book shows an error for %s, but CuTe computes it" % (where, expr))
            bad += 1
        elif not is_error and got == "refused":
            print("not ok - %s: CuTe refuses %s" % (where, expr))
            bad += 1
    if bad == 0:
        print("ok - all %d live examples of the book were asked of real CuTe "
              "(tests/data/oracle/book_*.tsv; %d skipped: an operation the oracle lacks, or a "
              "nested call)" % (n, skipped))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
