#!/usr/bin/env bash
# The calculator (build/bin/layout): every CuTe vector through --tsv, the human format, --grid,
# and hostile input -- each bad line gets one `error: ..., at column N` line and exit status 1,
# never a crash or a hang.
set -u
B=${B:-build}
CALC=${CALC:-$B/bin/layout}
make -s -f mk/lib.mk B="$B" "$CALC" >&2 || { echo "not ok - build the calculator"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0
ok()  { n=$((n+1)); echo "ok $n - $*"; }
bad() { n=$((n+1)); echo "not ok $n - $*"; }

# --- every vector line, written as a call, through --tsv -------------------------------------
views='^(local_tile|local_tile_proj|local_partition|local_partition_proj|slice|identity_tensor|identity_local_tile|identity_local_tile_proj|identity_local_partition)$'
for f in tests/data/cute/*.tsv $(ls tests/data/oracle/random_*.tsv tests/data/oracle/book_examples.tsv tests/data/oracle/cute_*.tsv 2>/dev/null); do
  awk -F'\t' -v views="$views" -v exprs="$tmp/exprs" -v want="$tmp/want" '
    NF == 0 { next }
    { nr = ($1 ~ views) ? 2 : 1; s = $1 "(";
      for (i = 2; i <= NF - nr; i++) s = s (i > 2 ? ", " : "") $i;
      print s ")" > exprs;
      r = $(NF - nr + 1); if (nr == 2) r = r "\t" $NF; print r > want }' "$f"
  start=$(date +%s%N)
  "$CALC" --tsv < "$tmp/exprs" > "$tmp/got" 2>/dev/null
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  lines=$(wc -l < "$tmp/want")
  if cmp -s "$tmp/want" "$tmp/got"; then ok "$(basename "$f"): $lines lines agree with CuTe through layout --tsv (${ms} ms)"
  else bad "$(basename "$f"): layout --tsv disagrees with CuTe"; diff <(paste "$tmp/exprs" "$tmp/want") <(paste "$tmp/exprs" "$tmp/got") | head -20 | sed 's/^/# /'; fi
done
cat tests/data/cute/*.tsv | awk -F'\t' -v views="$views" '{ nr = ($1 ~ views) ? 2 : 1; s = $1 "("; for (i = 2; i <= NF - nr; i++) s = s (i > 2 ? ", " : "") $i; print s ")" }' > "$tmp/all"
start=$(date +%s%N); "$CALC" --tsv < "$tmp/all" > /dev/null; ms=$(( ($(date +%s%N) - start) / 1000000 ))
if [ "$ms" -lt 1000 ]; then ok "the whole vector set ($(wc -l < "$tmp/all") lines) runs through layout --tsv in ${ms} ms (under a second)"
else bad "the whole vector set takes ${ms} ms (more than a second)"; fi

# --- good input, human format ----------------------------------------------------------------
expect() {  # expect ARGS... -- WANT   (argument mode, exit 0)
  local want=${!#} out rc
  out=$("$CALC" "${@:1:$#-1}" 2>&1); rc=$?
  if [ $rc -eq 0 ] && [ "$out" = "$want" ]; then ok "layout ${*:1:$#-1}"; else bad "layout ${*:1:$#-1}"; printf '#   got (%d): %s\n#   want: %s\n' $rc "$out" "$want"; fi
}
expect 'local_tile((4,6,8):(48,8,_1), (_2,_2), (1,2))' '128 o (_2,_2,8):(48,8,_1)'
expect 'zipped_divide((4,6,8):(48,8,_1), (_2,_2))' '((_2,_2),(2,3,8)):((48,8),(96,16,_1))'
expect 'local_tile((4,8):(8,_1), (_2,_2,_4), (0,0,_), (_1,X,_1))' '0 o (_2,_4,2):(8,_1,_4)'
expect 'local_partition((8,6):(_1,8), (_4,_2):(_1,_4), 1, (_1,X))' '1 o (2,6):(_4,8)'
expect 'identity_local_tile((41,55), (_4,_8), (10,6))' '(40,48) o (_4,_8):(_1@0,_1@1)'
expect --tsv 'slice((2,8,2):(_16,_2,_1), (1,_,1))' "$(printf '(8):(_2)\t17')"
expect 'coalesce(composition((_6,_2):(_8,_2), (_4,_3):(_3,_1)))' '(_2,_2,_3):(_24,_2,_8)'
expect --grid '(2,3):(3,1)' '(2,3):(3,1)
      0   1   2 
    +---+---+---+
 0  | 0 | 1 | 2 |
    +---+---+---+
 1  | 3 | 4 | 5 |
    +---+---+---+'
"$CALC" --plot "$tmp/plot.dat" '(2,2):(2,1)' > /dev/null
if [ "$(grep -v '^#' "$tmp/plot.dat" | tr '\n' ' ')" = "0 0 0 0 1 1 1 0 2 1 1 3 " ] && grep -q '^# rows 2 cols 2' "$tmp/plot.dat"; then ok "--plot writes row col value for every cell"
else bad "--plot output"; sed 's/^/# /' "$tmp/plot.dat"; fi

# --- hostile input: one error line each, exit 1, no crash ------------------------------------
hostile() {  # hostile NAME FILE  -- the file's lines go through stdin
  local name=$1 file=$2 lines out rc
  lines=$(awk 'END { print NR }' "$file")
  timeout 20 "$CALC" < "$file" > "$tmp/out" 2> "$tmp/err"; rc=$?
  out=$(wc -l < "$tmp/out")
  if [ $rc -eq 1 ] && [ "$out" -eq "$lines" ] && ! grep -qv '^error: .*, at column [0-9]*$' "$tmp/out"; then ok "hostile input: $name"
  else bad "hostile input: $name (exit $rc, $out lines for $lines)"; head -c 300 "$tmp/out" | sed 's/^/# /'; fi
}
h() { printf '%s\n' "$2" > "$tmp/h"; hostile "$1" "$tmp/h"; }
h "unbalanced parentheses"   'size((4,6):(1,4)'
h "a closing parenthesis"    ')'
h "empty line"               ''
h "only spaces"              '    '
h "unknown op"               'frobnicate((4,6):(1,4))'
h "wrong arity"              'composition((4,6):(1,4))'
h "too many arguments"       'size(1,2,3,4,5,6,7)'
h "huge integer"             'size((99999999999999999999999,4):(1,4))'
h "64-bit overflow"          'size((4611686018427387904,4):(1,4611686018427387904))'
h "negative shape"           'size((-4,6):(1,4))'
h "trailing garbage"         'size(4:1) size(4:1)'
h "text after a value"       '(4,6):(1,4)abc'
h "a layout where a shape is needed" 'make_layout((4,6):(1,4))'
h "non-injective complement" 'complement((_2,_2):(_1,_1), 8)'
h "inadmissible composition" 'composition((_3,_2):(_1,_5), _2:_4)'
printf 'size(\x01\xff\xfe(4):(1))\n' > "$tmp/h"; hostile "non-UTF-8 bytes" "$tmp/h"
printf 'size(4:1)\0garbage\n' > "$tmp/h"; hostile "a NUL byte" "$tmp/h"
awk 'BEGIN { s = ""; for (i = 0; i < 300; i++) s = s "("; s = s "1"; for (i = 0; i < 300; i++) s = s ")"; print s }' > "$tmp/h"; hostile "nesting past capacity" "$tmp/h"
awk 'BEGIN { s = "size(("; for (i = 0; i < 1000; i++) s = s (i ? "," : "") "1"; s = s "):("; for (i = 0; i < 1000; i++) s = s (i ? "," : "") "1"; print s "))" }' > "$tmp/h"; hostile "a thousand modes" "$tmp/h"
awk 'BEGIN { s = ""; for (i = 0; i < 1048576; i++) s = s "("; print s }' > "$tmp/h"; hostile "a line of a megabyte" "$tmp/h"
awk 'BEGIN { s = "size("; for (i = 0; i < 20; i++) s = s "size("; print s }' > "$tmp/h"; hostile "calls nested too deeply" "$tmp/h"

# --- mixed lines: one output line per input line, in order --------------------------------
printf 'size((4,6):(1,4))\n)\n\nrank((4,6):(1,4))\nfoo(1)\ncosize(8:2)\n' > "$tmp/mixed"
"$CALC" < "$tmp/mixed" > "$tmp/out" 2>/dev/null; rc=$?
if [ $rc -eq 1 ] && [ "$(tr '\n' '|' < "$tmp/out")" = "24|error: unbalanced parentheses: unexpected ')', at column 1|error: empty expression, at column 1|_2|error: unknown operation 'foo' (layout --list shows them), at column 1|15|" ]; then
  ok "mixed good and bad lines: one output line each, in order, exit status 1"
else bad "mixed good and bad lines (exit $rc)"; sed 's/^/# /' "$tmp/out"; fi
"$CALC" --bogus > /dev/null 2>&1; [ $? -eq 2 ] && ok "an unknown option is a usage error (exit 2)" || bad "unknown option"
exit 0
