#!/bin/sh
# web/build.sh OUT.js: the calculator compiled to WebAssembly for the book's pages.
#
# Compiles lib/*.c, labs/01_layouts/calc.c and web/calc_wasm.c with clang for wasm32-wasi (the
# C library is wasi-libc; nothing of WASI is used but a few stdio calls that web/calc.js answers)
# and writes OUT.js, which sets
#   LAYOUT_WASM     the module, as base64 (pages opened from file:// may not fetch a .wasm file)
#   LAYOUT_PALETTE  the colours of the book's figures, read from figures/layout_grid.gp
# The toolchain is Debian's clang, lld, wasi-libc and compiler-rt's wasm32 builtins; missing parts
# are installed by mk/apt-install.sh. Where that cannot be done, OUT.js sets LAYOUT_WASM to null,
# the book is built without the in-page calculator, and one note says so.
set -eu
out=$1
WASM_CC=${WASM_CC:-clang}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the stack is as large as the command line's and sits below the data, so that an overflow traps
# instead of overwriting memory
flags="--target=wasm32-wasi -mexec-model=reactor -std=c11 -O2 -Wall -Wextra -Werror
       -D_POSIX_C_SOURCE=200809L -Ilib -Ilabs/01_layouts
       -Wl,--stack-first -Wl,-z,stack-size=8388608 -Wl,--strip-all"

# can we compile and link a module? (clang links compiler-rt's builtins into every module)
probe() {
	printf 'int probe(void) { return 0; }\n' > "$tmp/probe.c"
	$WASM_CC $flags "$tmp/probe.c" -o "$tmp/probe.wasm" 2>/dev/null
}
clang_major() { $WASM_CC --version 2>/dev/null | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n 1; }

major=
if ! probe; then
	command -v "$WASM_CC" >/dev/null 2>&1 && command -v wasm-ld >/dev/null 2>&1 &&
		dpkg -s wasi-libc >/dev/null 2>&1 || mk/apt-install.sh clang lld wasi-libc || true
	major=$(clang_major)
	[ -n "$major" ] && { probe || mk/apt-install.sh "libclang-rt-$major-dev-wasm32" || true; }
fi
if ! probe; then
	echo "note: no WebAssembly toolchain (Debian packages clang lld wasi-libc libclang-rt-${major:-N}-dev-wasm32):" \
	     "the book is built without the in-page calculator" >&2
	printf '// the book was built without the in-page calculator (no WebAssembly toolchain)\nwindow.LAYOUT_WASM = null;\n' > "$out"
	# dated 1970, the stand-in is older than its sources: the next make tries again, and builds
	# the calculator once the toolchain is there
	touch -d '@0' "$out"
	exit 0
fi

$WASM_CC $flags lib/*.c labs/01_layouts/calc.c web/calc_wasm.c -o "$tmp/layout.wasm"
palette=$(sed -n '/ANCHOR: palette/,/ANCHOR_END: palette/p' figures/layout_grid.gp |
	grep -o '0x[0-9a-fA-F]\{6\}' | sed "s/^0x/'#/; s/\$/'/" | paste -sd, -)
[ -n "$palette" ] || { echo "error: no palette in figures/layout_grid.gp" >&2; exit 1; }
{
	echo "// made by web/build.sh: the layout calculator (lib/, labs/01_layouts/calc.c) as WebAssembly"
	echo "window.LAYOUT_PALETTE = [$palette];"
	printf 'window.LAYOUT_WASM = "'
	base64 -w 0 "$tmp/layout.wasm"
	printf '";\n'
} > "$tmp/out.js"
mv "$tmp/out.js" "$out"
