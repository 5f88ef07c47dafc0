#!/usr/bin/env bash
# The library's tests and the calculator again, built with AddressSanitizer and
# UndefinedBehaviorSanitizer: any report aborts the program and fails the check.
set -u -o pipefail
B=${B:-build}
make -s -f mk/lib.mk B="$B" lib-san >&2 || { echo "not ok - build with -fsanitize=address,undefined"; exit 1; }
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
rc=0
"$B/san/tests/test_units" | sed 's/^\(not \)\{0,1\}ok - /&[asan+ubsan] /' || rc=1
"$B/san/tests/test_vectors" tests/data/cute/*.tsv $(ls tests/data/oracle/random_*.tsv tests/data/oracle/book_examples.tsv tests/data/oracle/cute_*.tsv 2>/dev/null) | sed 's/^\(not \)\{0,1\}ok - /&[asan+ubsan] /' || rc=1
"$B/san/tests/test_props" "${SAN_PROPS_CASES:-1000}" 7 | sed 's/^\(not \)\{0,1\}ok - /&[asan+ubsan] /' || rc=1
"$B/san/tests/test_scheduler" | sed 's/^\(not \)\{0,1\}ok - /&[asan+ubsan] /' || rc=1
CALC="$B/san/bin/layout" tests/checks/11-calculator.sh | grep -v 'runs through layout --tsv in' | sed 's/^\(not \)\{0,1\}ok [0-9]* - /&[asan+ubsan] /' || rc=1
exit $rc
