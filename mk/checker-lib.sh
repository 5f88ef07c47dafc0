# Helpers for exercise checkers (labs/NN_name/exercises/K-slug.sh):
#   . mk/checker-lib.sh
# A checker reads $LAB_DIR (the sources to check) and ends with solved, or
# not_solved "one line saying why", or needs_gpu.
B=${B:-build}
LAYOUT=${LAYOUT:-$B/bin/layout}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

solved()     { exit 0; }
not_solved() { echo "not yet: $*"; exit 1; }
needs_gpu()  { exit 77; }
have_gpu()   { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; }

# The result of one calculator expression (its error line if it fails).
calc() { printf '%s\n' "$1" | "$LAYOUT" 2>/dev/null | head -n 1; }

# The expressions of an answer file: its lines without comments and blanks.
answers() { grep -v '^[[:space:]]*\(#\|$\)' "$1" || true; }

# lab_build: compile the lab's .cu files from $LAB_DIR into $WORK/lab.
lab_build() {
	[ -n "${NVCC:-}" ] || { echo "nvcc not found: cannot build the lab"; exit 77; }
	"$NVCC" $NVCCFLAGS -o "$WORK/lab" "$LAB_DIR"/*.cu "$B/lib/liblayout.a" ||
		not_solved "the lab does not compile"
}

# lab_host_run: build the lab and run its host part (no device) into $WORK/out.
lab_host_run() {
	lab_build
	CUDA_VISIBLE_DEVICES=-1 "$WORK/lab" >"$WORK/out" 2>&1 ||
		not_solved "the lab's host part fails: $(tail -n 1 "$WORK/out")"
}

# pairs FILE: a lab prints each expression, then its result on the next line
# after "->" (or both on one line); list them as "expression<TAB>result", with
# the expression's spaces removed, so that spacing never matters.
pairs() {
	awk 'function squeeze(s) { gsub(/[ \t]+/, "", s); return s }
	/^[ \t]*->/ { r = $0; sub(/^[ \t]*->[ \t]*/, "", r); print squeeze(prev) "\t" r; next }
	/ -> / { e = $0; r = $0; sub(/[ \t]*->.*/, "", e); sub(/.*->[ \t]*/, "", r); print squeeze(e) "\t" r; next }
	{ prev = $0 }' "$1"
}

# result_of FILE EXPR: the result printed for EXPR (spaces in EXPR ignored)
result_of() {
	e=$(printf '%s' "$2" | tr -d ' \t')
	pairs "$1" | awk -F'\t' -v e="$e" '$1 == e { print $2; exit }'
}
