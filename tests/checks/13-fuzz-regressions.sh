#!/usr/bin/env bash
# Replay the fuzzer's seeds and every input that ever crashed it (tests/fuzz/regressions/)
# through the sanitizer build of the calculator: no crash, one output line per input line.
set -u
B=${B:-build}
make -s -f mk/lib.mk B="$B" "$B/san/bin/layout" >&2 || { echo "not ok - build the sanitizer calculator"; exit 1; }
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
for dir in tests/fuzz/seeds tests/fuzz/regressions; do
  count=0 bad=0
  for f in "$dir"/*; do
    [ -f "$f" ] || continue
    count=$((count + 1))
    head -n 1 "$f" | tr -d '\n' > "$tmp"; echo >> "$tmp"        # the harness reads the first line
    timeout 20 "$B/san/bin/layout" < "$tmp" > /dev/null 2>&1; rc=$?
    if [ $rc -gt 1 ]; then bad=$((bad + 1)); echo "# $f: exit status $rc"; fi
  done
  if [ $bad -eq 0 ]; then echo "ok - $dir: $count inputs replayed, none crashed"; else echo "not ok - $dir: $bad of $count inputs crashed"; fi
done
