#!/usr/bin/env bash
# Every exercise's checker fails on the shipped lab and passes on the shipped
# solution (make check LAB=NN EX=K [SOLUTION=1]); checkers that need a GPU
# are skipped on a machine without one.
cd "$(dirname "$0")/../.." && . tests/book/lib.sh
list=$(mk/exercise.sh list)
[ -n "$list" ] || { ok "no exercises yet # SKIP"; exit 0; }
while read -r nn k title; do
	[ -n "$title" ] || not_ok "exercise $nn $k has no '# title:' line"
	out=$(make --no-print-directory -s check LAB="$nn" EX="$k" 2>&1); rc=$?
	if [ $rc -eq 77 ]; then ok "exercise $nn $k # SKIP needs a CUDA device"; continue; fi
	if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q '^not yet: '; then
		ok "exercise $nn $k ($title): the checker fails on the shipped lab, saying why"
	else
		not_ok "exercise $nn $k ($title): the checker does not fail on the shipped lab (status $rc)"
		printf '%s\n' "$out" | tail -n 5 | sed 's/^/# /'
	fi
	out=$(make --no-print-directory -s check LAB="$nn" EX="$k" SOLUTION=1 2>&1); rc=$?
	if [ $rc -eq 0 ]; then
		ok "exercise $nn $k: the checker passes on the solution"
	else
		not_ok "exercise $nn $k: the checker fails on the solution (status $rc)"
		printf '%s\n' "$out" | tail -n 5 | sed 's/^/# /'
	fi
done <<< "$list"
exit $FAILED
