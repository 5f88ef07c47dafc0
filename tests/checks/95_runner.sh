#!/usr/bin/env bash
# The test runner itself: it counts ok/not ok lines, counts a check that
# fails without saying so or that runs no test as one failure, and ends with
# exactly one "N passed, N failed" line.
cd "$(dirname "$0")/../.." && . tests/book/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '#!/bin/sh\necho "ok - a"\necho "not ok - b"\necho "# why b"\n' > "$tmp/1.sh"
printf '#!/bin/sh\necho "ok - c"\nexit 3\n' > "$tmp/2.sh"
printf '#!/bin/sh\necho hello\n' > "$tmp/3.sh"
printf '#!/bin/sh\necho "ok - d"\n' > "$tmp/4.sh"
printf '#!/bin/sh\necho "not ok - not executable, not run"\n' > "$tmp/5.sh"
chmod +x "$tmp"/[1-4].sh
out=$(tests/run "$tmp"); rc=$?
[ "$(printf '%s\n' "$out" | tail -n 1)" = "3 passed, 3 failed" ] && [ $rc -eq 1 ] &&
	ok "the runner counts 3 passed, 3 failed and exits 1" ||
	{ not_ok "the runner's count (status $rc)"; printf '%s\n' "$out" | sed 's/^/# /'; }
printf '%s' "$out" | grep -q '# why b' && ok "the runner shows a failure's diagnostics" ||
	not_ok "the runner hides a failure's diagnostics"
rm "$tmp"/[1-3].sh
out=$(tests/run "$tmp"); rc=$?
[ "$out" != "${out%1 passed, 0 failed}" ] && [ $rc -eq 0 ] && ok "the runner exits 0 when all pass" ||
	not_ok "the runner with all passing: status $rc"
exit $FAILED
