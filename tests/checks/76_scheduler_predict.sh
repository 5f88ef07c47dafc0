#!/usr/bin/env bash
# Lab 06's --predict prints the schedule that CuTeDSL's rules give, for every configuration of
# tests/data/scheduler/predict.tsv (written by an independent restatement of those rules, see the
# README there); bad arguments are usage errors (exit 2).
cd "$(dirname "$0")/../.." && . tests/book/lib.sh
bin=$B/bin/06_scheduling
data=tests/data/scheduler/predict.tsv
nvcc=$(make --no-print-directory -s -f Makefile -f - print-nvcc <<'MK'
print-nvcc: ; @echo '$(NVCC)'
MK
)
if [ -z "$nvcc" ]; then ok "lab 06 --predict # SKIP nvcc not found"; exit 0; fi
make --no-print-directory -s "$bin" >/dev/null 2>&1 || { not_ok "$bin does not build"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
configs=$(grep -v '^#' "$data" | cut -f1 | uniq)
n=0 bad=0
while read -r args; do
	n=$((n + 1))
	awk -F'\t' -v a="$args" '$1 == a { print $2 }' "$data" >"$tmp/want"
	# shellcheck disable=SC2086
	if ! "$bin" --predict $args >"$tmp/got" 2>"$tmp/err"; then
		not_ok "--predict $args exits with status $?"; bad=$((bad + 1)); continue
	fi
	if ! cmp -s "$tmp/want" "$tmp/got"; then
		not_ok "--predict $args differs from CuTeDSL's rules"
		diff "$tmp/want" "$tmp/got" | head -n 6 | sed 's/^/# /'
		bad=$((bad + 1))
	fi
done <<< "$configs"
[ $bad -eq 0 ] && ok "--predict gives CuTeDSL's schedule for all $n configurations of $data ($(grep -vc '^#' "$data") work items)"
for args in "4 4 1 1 1 0 m 8" "4 4 1 1 1 1 x 8" "4 4 1 1 1 1 m" "4 4 1 1 1 1 m 8 9" "4 -1 1 1 1 1 m 8" "4 4 1 1 1 1 m eight"; do
	# shellcheck disable=SC2086
	"$bin" --predict $args >"$tmp/out" 2>&1; rc=$?
	if [ $rc -eq 2 ] && grep -q '^usage:' "$tmp/out"; then
		ok "--predict $args: a usage error (exit 2)"
	else
		not_ok "--predict $args: exit $rc, not a usage error"
	fi
done
exit $FAILED
