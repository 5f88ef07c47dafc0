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
# --predict-sk: the Stream-K schedule; its contracts are tests/lib/test_scheduler.c's, here the
# command line: every unit's k range, and a configuration the scheduler refuses is an error (exit 2)
out=$("$bin" --predict-sk 2 1 1 1 m 8 4 auto 2>&1); rc=$?
want='cta 0 unit 0 tile 0 (0,0,0) k [0,4) partial: sums to workspace slot 0
cta 1 unit 0 tile 0 (0,0,0) k [4,8) owner: adds the partial sums of CTA 0, writes the tile
cta 2 unit 0 tile 1 (1,0,0) k [0,4) partial: sums to workspace slot 2
cta 3 unit 0 tile 1 (1,0,0) k [4,8) owner: adds the partial sums of CTA 2, writes the tile'
[ $rc -eq 0 ] && [ "$(printf '%s\n' "$out" | tail -n +2)" = "$want" ] &&
	ok "--predict-sk: 2 tiles on 4 CTAs is split-K by 2" || { not_ok "--predict-sk 2 1 1 1 m 8 4 auto (status $rc)"; printf '%s\n' "$out" | sed 's/^/# /'; }
for args in "4 3 1 1 m 8 5 3" "1 1 1 1 m 2 4 auto" "3 3 1 2 m 8 4 auto"; do
	# shellcheck disable=SC2086
	"$bin" --predict-sk $args >"$tmp/out" 2>&1; rc=$?
	if [ $rc -eq 2 ] && grep -q '^error: ' "$tmp/out"; then ok "--predict-sk $args: refused, $(head -n 1 "$tmp/out")"
	else not_ok "--predict-sk $args: exit $rc, not refused"; fi
done
for args in "4 3 1 1 m 8 5" "4 3 1 1 x 8 5 auto" "4 3 1 1 m 0 5 auto"; do
	# shellcheck disable=SC2086
	"$bin" --predict-sk $args >"$tmp/out" 2>&1; rc=$?
	if [ $rc -eq 2 ] && grep -q '^usage:' "$tmp/out"; then ok "--predict-sk $args: a usage error (exit 2)"
	else not_ok "--predict-sk $args: exit $rc, not a usage error"; fi
done
exit $FAILED
