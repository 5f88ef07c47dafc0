/* first_layouts.c -- the layout library from C, on chapter 1's examples.
 *
 * Each step below has its CuTe C++ twin, and its CuTeDSL (Python) one, in the
 * comment above it: the library's functions are CuTe's names behind the prefix
 * lt_, and values print in CuTe's C++ notation.
 *
 * Build and run it from the repository root (make builds build/lib/liblayout.a):
 *     cc -std=c11 -Ilib labs/01_layouts/example/first_layouts.c build/lib/liblayout.a -o first_layouts
 *     ./first_layouts
 * It prints what each step computed; labs/01_layouts/output-api.txt is a recorded run.
 */
#include <stdio.h>
#include "layout.h"

// ANCHOR: parse
/* parse: lt_parse, plus a message on stderr when the text is not CuTe notation.
 * lt_parse sets *errcol to the 1-based column (character position) of the first
 * character it could not read; the value it returns then carries the error. */
static lt_val parse(const char *text)
{
	int errcol = 0;
	lt_val v = lt_parse(text, &errcol);
	if (!lt_ok(&v))
		fprintf(stderr, "cannot parse %s at column %d: %s\n", text, errcol, lt_error(&v));
	return v;
}
// ANCHOR_END: parse

int main(void)
{
	// ANCHOR: tour
	// a 4x6 matrix stored row by row: dynamic shape, static unit stride
	// CuTe: auto a = make_layout(make_shape(4, 6), make_stride(6, Int<1>{}));
	// CuTeDSL (m, n cutlass.Int32): a = cute.make_layout((m, n), stride=(n, 1))
	lt_layout a = parse("(4,6):(6,_1)");
	// CuTe: auto crd = make_coord(2, 3);
	//       auto idx = crd2idx(crd, shape(a), stride(a));
	// CuTeDSL: idx = cute.crd2idx((2, 3), a)
	lt_val crd = parse("(2,3)");
	lt_val idx = lt_crd2idx(a, crd);
	// CuTe: auto n = size(a);
	// CuTeDSL: n = cute.size(a)
	lt_val n = lt_size(a);
	printf("a = %s  a%s = %s  size(a) = %s\n",
	       lt_str(&a), lt_str(&crd), lt_str(&idx), lt_str(&n));

	// the top-left 2x3 block: composition with a tiler, mode by mode
	// CuTe: auto block = Shape<_2,_3>{};  auto b = composition(a, block);
	// CuTeDSL: b = cute.composition(a, (2, 3))
	lt_val block = parse("(_2,_3)");
	lt_layout b = lt_composition_tiler(a, block);
	printf("composition(a, %s) = %s\n", lt_str(&block), lt_str(&b));

	// cut a into 2x2 tiles: one tile in mode 0, which tile in mode 1
	// CuTe: auto tiler = Shape<_2,_2>{};  auto z = zipped_divide(a, tiler);
	// CuTeDSL: z = cute.zipped_divide(a, (2, 2))
	lt_val tiler = parse("(_2,_2)");
	lt_layout z = lt_zipped_divide(a, tiler);
	printf("zipped_divide(a, %s) = %s\n", lt_str(&tiler), lt_str(&z));

	// a broken precondition gives an error value, which later calls pass on
	lt_layout bad = lt_composition(a, parse("_4:_5"));
	lt_layout still_bad = lt_coalesce(bad);
	printf("ok: %s\n%s\n",
	       lt_ok(&still_bad) ? "yes" : "no", lt_error(&still_bad));
	// ANCHOR_END: tour
	return 0;
}
