#!/usr/bin/env bash
# Every recorded output (labs/*/output*.txt) is still what its command
# (labs/*/output*.cmd) prints, "bench:" lines aside; and the comparison
# itself catches a difference and ignores timing lines.
cd "$(dirname "$0")/../.." && . tests/book/lib.sh
mk/outputs.sh check || FAILED=1

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/labs/98_demo"
printf 'echo same\necho "bench: 1.0 ms"\n' > "$tmp/labs/98_demo/output.cmd"
printf 'same\nbench: 2.0 ms\n' > "$tmp/labs/98_demo/output.txt"
here=$PWD
if (cd "$tmp" && "$here/mk/outputs.sh" check labs/98_demo/output.cmd >/dev/null); then
	ok "a recorded output that differs only in bench: lines matches"
else
	not_ok "bench: lines are not ignored"
fi
printf 'different\n' > "$tmp/labs/98_demo/output.txt"
if (cd "$tmp" && "$here/mk/outputs.sh" check labs/98_demo/output.cmd | grep -q '^not ok'); then
	ok "a stale recorded output is caught"
else
	not_ok "a stale recorded output goes unnoticed"
fi
exit $FAILED
