#!/usr/bin/env bash
# The layout library: unit tests, every CuTe vector through the C API, and the algebra's
# contracts over 10,000 random layouts per property, and the tile scheduler.
set -u
B=${B:-build}
make -s -f mk/lib.mk B="$B" "$B/tests/test_units" "$B/tests/test_vectors" "$B/tests/test_props" "$B/tests/test_scheduler" >&2 || { echo "not ok - build the library tests"; exit 1; }
rc=0
"$B/tests/test_units" || rc=1
"$B/tests/test_vectors" tests/data/cute/*.tsv $(ls tests/data/oracle/random_*.tsv tests/data/oracle/book_examples.tsv tests/data/oracle/cute_*.tsv 2>/dev/null) || rc=1
"$B/tests/test_props" "${PROPS_CASES:-10000}" || rc=1
"$B/tests/test_scheduler" || rc=1
exit $rc
