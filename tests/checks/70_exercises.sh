#!/usr/bin/env bash
# Every exercise's solution, labs/NN_name/solutions/K.patch, applies exactly
# (no fuzz, no offset) to the lab as it is; every checker fails on the shipped
# lab and passes on the lab with its patch applied (make check LAB=NN EX=K
# [SOLUTION=1]); checkers that need a GPU are skipped on a machine without
# one. A solutions/ folder holds one K.patch per exercise and nothing else.
cd "$(dirname "$0")/../.." && . tests/book/lib.sh
list=$(mk/exercise.sh list)
[ -n "$list" ] || { ok "no exercises yet # SKIP"; exit 0; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for d in labs/[0-9][0-9]_*/solutions; do
	[ -d "$d" ] || continue
	nn=$(basename "$(dirname "$d")"); nn=${nn%%_*}
	extra=$(cd "$d" && for f in * .[!.]*; do
		[ -e "$f" ] || continue
		k=${f%.patch}
		printf '%s\n' "$list" | grep -q "^$nn $k " && [ "$f" = "$k.patch" ] && [ -f "$f" ] || echo "$f"
	done)
	[ -z "$extra" ] && ok "$d holds one K.patch per exercise and nothing else" ||
		not_ok "$d holds files that are no exercise's patch: $(echo $extra)"
done
# a lab changed above a solution's hunk (an offset) or inside its context: the
# patch no longer applies exactly, and that is an error naming the patch
lab=$(ls -d labs/[0-9][0-9]_*/solutions/1.patch 2>/dev/null | grep -v '^labs/01_' | head -n 1)
if [ -n "$lab" ]; then
	lab=${lab%/solutions/1.patch}; nn=$(basename "$lab"); nn=${nn%%_*}
	file=$(sed -n 's|^+++ b/||p' "$lab/solutions/1.patch" | head -n 1)
	line=$(sed -n 's/^@@ -\([0-9]*\).*/\1/p' "$lab/solutions/1.patch" | head -n 1)
	for damage in offset context; do
		mkdir -p "$tmp/$damage"; cp -R mk "$tmp/$damage/"; mkdir -p "$tmp/$damage/labs"; cp -R "$lab" "$tmp/$damage/labs/"
		case $damage in
		offset)  sed -i '1i /* one more line */' "$tmp/$damage/$file" ;;
		context) sed -i "$((line + 1))s/\$/ \/* changed *\//" "$tmp/$damage/$file" ;;
		esac
		out=$(cd "$tmp/$damage" && mk/exercise.sh apply "$nn" 1 "$tmp/$damage/out" 2>&1)
		if [ $? -ne 0 ] && printf '%s' "$out" | grep -q "solutions/1.patch does not apply exactly"; then
			ok "a solution that no longer applies exactly ($damage) is an error naming it"
		else
			not_ok "a solution that no longer applies exactly ($damage) is not caught"; printf '%s\n' "$out" | sed 's/^/# /'
		fi
	done
fi
while read -r nn k title; do
	[ -n "$title" ] || not_ok "exercise $nn $k has no '# title:' line"
	if out=$(mk/exercise.sh apply "$nn" "$k" "$tmp/$nn-$k" 2>&1); then
		ok "exercise $nn $k: solutions/$k.patch applies exactly to the lab"
	else
		not_ok "exercise $nn $k: its solution does not apply exactly"; printf '%s\n' "$out" | sed 's/^/# /'
	fi
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
