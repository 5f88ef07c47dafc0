#!/usr/bin/env python3
"""Split the oracle's `generate --keep-failures` output into two files.

    python3 tests/oracle/split.py OUT.tsv VECTORS.tsv REFUSED.tsv

VECTORS gets the computed vector lines (op, args, result(s)) unchanged;
REFUSED gets the inputs (op, args) of the `#BUILD ...` (does not compile) and
`#RUNTIME ...` (the program dies) comment lines, without the comment mark and
the message.  Prints the three counts.
"""

import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
from compare import NARGS  # noqa: E402


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    src, vec, ref = sys.argv[1:]
    nv = nb = nr = 0
    with open(src) as fh, open(vec, "w") as fv, open(ref, "w") as fr:
        for raw in fh:
            ln = raw.rstrip("\n")
            if not ln.strip():
                continue
            if ln.startswith("#BUILD\t") or ln.startswith("#RUNTIME\t"):
                cols = ln.split("\t")
                op = cols[1]
                if op not in NARGS:
                    sys.exit("unknown op in: " + ln)
                fr.write("\t".join(cols[1:2 + NARGS[op]]) + "\n")
                if ln.startswith("#BUILD"):
                    nb += 1
                else:
                    nr += 1
            elif ln.startswith("#"):
                continue
            else:
                fv.write(ln + "\n")
                nv += 1
    print("%s: %d computed, %d could not build, %d runtime error" % (src, nv, nb, nr))


if __name__ == "__main__":
    main()
