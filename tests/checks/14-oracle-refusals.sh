#!/usr/bin/env bash
# Inputs real CuTe refuses (a static assertion fires, no overload matches, or it dies), and inputs
# where CuTe computes with dynamic values that break its own preconditions and prints a degenerate
# layout (a mode of size 0, sizes that do not multiply out): the library refuses both, with a
# message, one error line per input line.  tests/data/oracle/README.md says where they come from.
set -u
B=${B:-build}
CALC=${CALC:-$B/bin/layout}
make -s -f mk/lib.mk B="$B" "$CALC" >&2 || { echo "not ok - build the calculator"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
views='^(local_tile|local_tile_proj|local_partition|local_partition_proj|slice|identity_tensor|identity_local_tile|identity_local_tile_proj|identity_local_partition)$'
for f in tests/data/oracle/refused_*.tsv tests/data/oracle/book_refused.tsv tests/data/oracle/degenerate_*.tsv; do
  [ -s "$f" ] || continue
  case $f in *degenerate*) nr=auto ;; *) nr=0 ;; esac
  awk -F'\t' -v views="$views" -v nr="$nr" 'NF { r = nr == "auto" ? (($1 ~ views) ? 2 : 1) : 0; s = $1 "(";
      for (i = 2; i <= NF - r; i++) s = s (i > 2 ? ", " : "") $i; print s ")" }' "$f" > "$tmp/exprs"
  "$CALC" --tsv < "$tmp/exprs" > "$tmp/out" 2>/dev/null; rc=$?
  lines=$(wc -l < "$tmp/exprs"); errs=$(grep -c '^error: .*, at column [0-9]*$' "$tmp/out")
  if [ $rc -eq 1 ] && [ "$errs" -eq "$lines" ] && [ "$(wc -l < "$tmp/out")" -eq "$lines" ]; then
    echo "ok - $(basename "$f"): all $lines inputs refused with a message"
  else
    echo "not ok - $(basename "$f"): $errs of $lines refused (exit $rc)"
    paste "$tmp/exprs" "$tmp/out" | grep -v "	error: " | head -5 | sed 's/^/# accepted: /'
  fi
done
