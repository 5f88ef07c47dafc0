/* layout.h -- CuTe's layout algebra in C11.
 *
 * Values, not pointers: an integer tuple, a coordinate, a tiler and a layout are all one plain
 * struct, `lt_val`, a small tree stored inline (preorder nodes).  Every operation takes values and
 * returns a value; nothing is allocated and nothing needs freeing.
 *
 * Notation is CuTe's: `4` is a dynamic integer, `_4` a static one (CuTe's Int<4>), `(a,b)` a tuple,
 * `S:D` a layout, `_` the underscore, `_1@0` a basis stride (CuTe's E<0>).  Results carry CuTe's
 * static marks, decided by CuTe's own rules, so they print exactly as real CuTe prints them.
 *
 * Sticky errors: an operation whose precondition fails returns a value that carries the error and
 * its message; every later operation passes that value through, like NaN.  Test with lt_ok().
 *
 * The examples below are written `input -> output` in the printed notation.
 */
#ifndef LT_LAYOUT_H
#define LT_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * Values
 * ------------------------------------------------------------------------------------------- */

#define LT_CAP       128  /* nodes in one value (a layout counts its shape and its stride) */
#define LT_MAX_BASIS 6    /* depth of a basis element such as _1@0@1 */
#define LT_MSG       160  /* bytes of an error message */

enum lt_kind {
  LT_INT    = 0,  /* an integer, or a scaled basis element when nb > 0 */
  LT_TUPLE  = 1,  /* a tuple of `arity` children */
  LT_UNDER  = 2,  /* the underscore `_` (also CuTe's X in a step) */
  LT_LAYOUT = 3   /* a layout: two children, shape then stride */
};

typedef struct lt_node {
  int64_t  v;                 /* integer value, or the scale of a basis element */
  uint16_t span;              /* nodes in this subtree, itself included */
  uint8_t  kind;              /* enum lt_kind */
  uint8_t  st;                /* 1 if the integer is static (printed _N) */
  uint8_t  arity;             /* children of a tuple (2 for a layout) */
  uint8_t  nb;                /* basis depth: 0 for a plain integer */
  uint8_t  b[LT_MAX_BASIS];   /* basis indices, outermost first: E<b0,b1> prints as _1@b1@b0 */
} lt_node;

typedef struct lt_val {
  int32_t n;                  /* nodes used */
  int32_t err;                /* non-zero: this value is an error, msg says why */
  lt_node nd[LT_CAP];
  char    msg[LT_MSG];
} lt_val;

typedef lt_val lt_layout;     /* an lt_val whose root is a layout */
typedef lt_val lt_tuple;      /* an integer tuple, a shape, a stride or a coordinate */

/* A tensor view, as local_tile and local_partition return it: a layout and where it starts.
 * For a tensor over memory, `offset` is an element offset; for an identity tensor it is the
 * coordinate of the first element (CuTe prints such a tensor as `offset o layout`). */
typedef struct lt_view {
  lt_layout layout;
  lt_val    offset;
} lt_view;

/* ---------------------------------------------------------------------------------------------
 * Construction, inspection, errors
 * ------------------------------------------------------------------------------------------- */

lt_val lt_int(int64_t v);             /* a dynamic integer:  7  */
lt_val lt_static(int64_t v);          /* a static integer:   _7 */
lt_val lt_underscore(void);           /* _ */
lt_val lt_tuple_of(int n, const lt_val *items);      /* (items[0],...,items[n-1]) */
lt_val lt_make_layout_sd(lt_val shape, lt_val stride); /* S:D  @pre congruent(S,D) */
lt_val lt_error_val(const char *fmt, ...);           /* an error value with a message */

bool        lt_ok(const lt_val *x);     /* false if x carries an error */
const char *lt_error(const lt_val *x);  /* the message, or "" */

bool lt_is_layout(const lt_val *x);
bool lt_is_tuple(const lt_val *x);
bool lt_is_int(const lt_val *x);        /* a plain integer leaf (static or dynamic) */
int64_t lt_value(const lt_val *x);      /* the integer of a leaf (0 otherwise) */
bool lt_is_static(const lt_val *x);     /* every leaf static */

lt_val lt_shape(lt_layout l);           /* (4,6):(6,_1) -> (4,6) */
lt_val lt_stride(lt_layout l);          /* (4,6):(6,_1) -> (6,_1) */
lt_val lt_get(lt_val x, int i);         /* mode i of a tuple, or sublayout i of a layout */

/* Parse CuTe's notation: integers, `_N`, tuples, `S:D`, `_`, `X`, basis strides `_1@0`.
 * On failure the result is an error and *errcol (if given) is the 1-based column. */
lt_val lt_parse(const char *text, int *errcol);
/* Parse one value at *pp (leading blanks skipped) and advance *pp past it; text after it is left
 * for the caller.  Returns 0, or the 1-based column (counted from `start`) of the error. */
int lt_parse_at(const char *start, const char **pp, lt_val *out);

/* Print in CuTe's notation into buf (always terminated); returns the length it needed. */
size_t lt_print(const lt_val *x, char *buf, size_t cap);
/* Convenience: print into one of 8 rotating thread-local buffers (valid for the next 7 calls). */
const char *lt_str(const lt_val *x);
bool lt_equal(const lt_val *a, const lt_val *b);     /* same tree, values and static marks */

/* ---------------------------------------------------------------------------------------------
 * Integer tuples and layouts: size, rank, coordinates
 * ------------------------------------------------------------------------------------------- */

/* size: the product of the shape (of a layout or a shape).  Static only if every factor is.
 *   (_4,_2):(_1,_4) -> _8      (4,_2):(_1,4) -> 8
 * @pre shape entries >= 0     @post size == number of coordinates of the domain */
lt_val lt_size(lt_val x);
/* cosize: one past the largest offset the layout reaches.  (2,4):(4,1) -> 8
 * @post l(i) < cosize(l) for all 0 <= i < size(l) */
lt_val lt_cosize(lt_val l);
/* rank: the number of top-level modes, always static.  (4,(2,3)):(1,(4,8)) -> _2; 4 -> _1 */
lt_val lt_rank(lt_val x);
/* depth: the nesting depth, always static.  (4,(2,3)):(1,(4,8)) -> _2; 4 -> _0 */
lt_val lt_depth(lt_val x);

/* crd2idx(c, L): the offset of coordinate c -- a 1-D index (split colexicographically over the
 * modes; the last mode takes what is left) or a hierarchical coordinate; `_` counts as _0.
 *   ((4,6):(6,_1), (1,2)) -> 8     ((4,6):(6,_1), 5) -> 7
 * @pre c is an integer, or congruent to a prefix-compatible profile of shape(L)
 * @post crd2idx(L, i) == inner_product(idx2crd(shape(L), i), stride(L)) for i < size(L) */
lt_val lt_crd2idx(lt_layout l, lt_val coord);
/* idx2crd(i, S): the natural coordinate of index i in shape S (colexicographic).
 *   ((4,(2,3)), 13) -> (1,(1,1))
 * @pre i an integer, or a coordinate congruent to a prefix of S
 * @post congruent(result, S) for an integer i; crd2idx over make_layout(S) gives i back */
lt_val lt_idx2crd(lt_val shape, lt_val index);
/* The same with a layout's strides, as CuTe's idx2crd(i, S, D): ((i/d) % s) at each leaf. */
lt_val lt_idx2crd_strided(lt_val index, lt_val shape, lt_val stride);

/* make_layout(S): the column-major (LayoutLeft) compact layout.  (2,3) -> (2,3):(_1,2)
 * @post an injective layout onto [0, size(S)); a static _1 mode gets stride _0 */
lt_layout lt_make_layout(lt_val shape);
/* make_layout(S, LayoutRight): the row-major compact layout.  (2,3) -> (2,3):(3,_1)
 * @post an injective layout onto [0, size(S)) */
lt_layout lt_make_layout_right(lt_val shape);
/* Concatenate layouts as modes: (a, b) -> (sa,sb):(da,db); one layout -> (s):(d) */
lt_layout lt_make_layout_of(int n, const lt_layout *modes);

/* ---------------------------------------------------------------------------------------------
 * Tuple manipulation
 * ------------------------------------------------------------------------------------------- */

lt_val lt_flatten(lt_val x);                   /* ((2,3),4) -> (2,3,4); layouts likewise.  @post depth <= 1 */
lt_val lt_append(lt_val x, lt_val elem);       /* (2,3),4 -> (2,3,4); 2,3 -> (2,3) */
lt_val lt_prepend(lt_val x, lt_val elem);      /* (2,3),4 -> (4,2,3) */
lt_val lt_zip(lt_val x);                       /* ((a,b),(c,d)) -> ((a,c),(b,d)) */
lt_layout lt_zip_layouts(lt_layout a, lt_layout b);  /* zip(a, b) mode by mode */
/* slice(c, x): keep the modes where c has `_`.  ((1,_,1), (2,8,2)) -> (8) */
lt_val lt_slice(lt_val coord, lt_val x);
/* dice(c, x): keep the modes where c has no `_`.  ((_1,_,_1), (32,64,4)) -> (32,4) */
lt_val lt_dice(lt_val coord, lt_val x);

/* ---------------------------------------------------------------------------------------------
 * The algebra
 * ------------------------------------------------------------------------------------------- */

/* coalesce: the same function on its domain with the fewest modes that can be proven mergeable
 * from static values (CuTe's rule: neighbours s0:d0, s1:d1 merge when s0*d0 == d1 is static).
 *   (_2,_4):(_1,_2) -> _8:_1      (2,_4,_6):(_1,2,8) -> (2,_4,_6):(_1,2,8)
 * @post size(result) == size(l), depth(result) <= 1, result(i) == l(i) for i < size(l) */
lt_layout lt_coalesce(lt_layout l);
/* coalesce at the terminals of a profile (mode by mode; modes past the profile are kept).
 *   (((2,(1,3)),(4,1)):((1,(6,2)),(8,32)), (1,1)) -> ((2,1,3),(4,1)):((1,6,2),(8,32))
 * @post rank(result) == rank(l); each profiled mode as lt_coalesce leaves it */
lt_layout lt_coalesce_profile(lt_layout l, lt_val profile);
/* filter: coalesce after giving every static stride-0 mode the shape _1.  (4,2):(_0,1) -> 2:1
 * @post the image of result equals the image of l; no static stride-0 mode is left */
lt_layout lt_filter(lt_layout l);

/* composition(A, B): the layout R with R(c) = A(B(c)) for every c in B's domain.
 *   ((6,2):(8,2), (4,3):(3,1)) -> ((2,2),(3,1)):((24,2),(8,2))
 *   ((_6,_2):(_8,_2), (_4,_3):(_3,_1)) -> ((_2,_2),_3):((_24,_2),_8)
 * @pre CuTe's divisibility conditions on A's modes and B's strides and shapes.  CuTe asserts them
 *      for static values only; the library checks the same conditions on the values always (an
 *      error, not CuTe's wrong layout).  They are weaker than admissibility: for example
 *      ((_4,_6):(_6,_1), _8:_3) passes them in CuTe and here, and gives (_2,_4):(_18,_1), which
 *      is not A o B -- the library follows CuTe there
 * @post compatible(B, R); R(c) == A(B(c)) for admissible A, B whose image of B lies in A's domain */
lt_layout lt_composition(lt_layout a, lt_layout b);
/* composition(A, T) with a tiler: a layout, an integer n (= n:_1), `_`, or a tuple of those
 * applied mode by mode (A's modes past the tuple are dropped).
 *   ((12,(4,8)):(59,(13,1)), (3:4,8:2)) -> (3,(2,4)):(236,(26,1))
 * @pre rank(T) <= rank(A); each mode as for lt_composition */
lt_layout lt_composition_tiler(lt_layout a, lt_val tiler);

/* complement(A, M): the layout of the offsets A does not reach, in order, up to the cotarget M
 * (an integer or a shape).  (4:2, 24) -> (2,3):(_1,8)
 * @pre A injective; rank(filter(A)) == 1 or A's strides static (CuTe's rule)
 * @post R(i) < R(i+1); R(i) != A(j) for i > 0; (A, R) injective; size(filter(A))*size(R) >= size(M) */
lt_layout lt_complement(lt_layout a, lt_val cotarget);
/* complement(A) = complement(A, cosize(filter(A))).  (_2,_2):(_1,_4) -> _2:_2 */
lt_layout lt_complement1(lt_layout a);

/* right_inverse(A): the largest R built from A's static strides with A(R(i)) == i.
 *   (_4,_2):(_2,_1) -> (_2,_4):(_4,_1)
 * @post A(R(i)) == i for all i < size(R) */
lt_layout lt_right_inverse(lt_layout a);
/* left_inverse(A): R with R(A(i)) == i.  (_4,_2):(_2,_1) -> (_2,_4):(_4,_1)
 * @pre A's strides static (CuTe's rule); A injective, each stride divisible by the sizes below it
 * @post R(A(i)) == i for all i < size(A) */
lt_layout lt_left_inverse(lt_layout a);

/* logical_divide(A, T) = composition(A, (T, complement(T, size(A)))) for a layout T; mode by
 * mode for a tuple (A's extra modes kept); n means n:_1; `_` keeps the mode.
 *   (1000:1, 128:1) -> (128,(1,8)):(1,(1,128))      (_1000:_1, _128:_1) -> (_128,_8):(_1,_128)
 * @pre as for composition and complement  @post size(result) >= size(A); result(i) == A(rhs(i)) */
lt_layout lt_logical_divide(lt_layout a, lt_val tiler);
/* zipped_divide: logical_divide with the tile modes and the rest modes gathered: ((tile),(rest)).
 *   ((4,6,8):(48,8,_1), (_2,_2)) -> ((_2,_2),(2,3,8)):((48,8),(96,16,_1))
 * @post rank(result) == 2; the same leaves as logical_divide, regrouped */
lt_layout lt_zipped_divide(lt_layout a, lt_val tiler);
/* tiled_divide: ((tile),rest0,rest1,...).  ((4,6,8):(48,8,_1), (_2,_2)) -> ((_2,_2),2,3,8):((48,8),96,16,_1) */
lt_layout lt_tiled_divide(lt_layout a, lt_val tiler);
/* flat_divide: (tile0,tile1,...,rest0,...).  ((4,6,8):(48,8,_1), (_2,_2)) -> (_2,_2,2,3,8):(48,8,96,16,_1) */
lt_layout lt_flat_divide(lt_layout a, lt_val tiler);

/* logical_product(A, B) = (A, composition(complement(A, size(A)*cosize(B)), B)) for a layout B;
 * mode by mode for a tuple.
 *   ((_2,_2):(_4,_1), _6:_1) -> ((_2,_2),(_2,_3)):((_4,_1),(_2,_8))
 * @pre the complement and the composition are admissible
 * @post size(result) == size(A)*size(B); mode 0 of result is A */
lt_layout lt_logical_product(lt_layout a, lt_val tiler);
/* zipped_product / tiled_product / flat_product: the logical product's modes regrouped as the
 * divides regroup theirs.  ((_2,_5):(_5,_1), (_3,_4)) -> ((_2,_5),(_3,_4)):((_5,_1),(_1,_5)) zipped */
lt_layout lt_zipped_product(lt_layout a, lt_val tiler);
lt_layout lt_tiled_product(lt_layout a, lt_val tiler);
lt_layout lt_flat_product(lt_layout a, lt_val tiler);
/* blocked_product: each element of B is a copy of A, blocks side by side: both padded to the
 * same rank with _1:_0 modes, logical product, then zip (A's mode, B's mode) mode by mode.
 *   ((_2,_5):(_5,_1), (_3,_4):(_1,_3)) -> ((_2,_3),(_5,_4)):((_5,_10),(_1,_30))
 * @post rank(result) == max(rank(A), rank(B)); the offsets of the logical product */
lt_layout lt_blocked_product(lt_layout a, lt_layout b);
/* raked_product: the copies of A interleaved: as blocked_product, zipped (B's mode, A's mode).
 *   ((_2,_5):(_5,_1), (_3,_4):(_1,_3)) -> ((_3,_2),(_4,_5)):((_10,_5),(_30,_1))
 * @post rank(result) == max(rank(A), rank(B)); the offsets of the logical product */
lt_layout lt_raked_product(lt_layout a, lt_layout b);

/* ---------------------------------------------------------------------------------------------
 * Tensor views: slicing, local_tile, local_partition, identity tensors
 * ------------------------------------------------------------------------------------------- */

/* slice_and_offset(c, L): the layout of the modes where c has `_`, and the offset of c (with `_`
 * as 0).  ((2,8,2):(_16,_2,_1), (1,_,1)) -> (8):(_2) and 17
 * @post L(c with x in the `_` places) == offset + result(x) */
lt_view lt_slice_and_offset(lt_val coord, lt_layout l);

/* The tensor view over memory with layout L, starting at element 0. */
lt_view lt_tensor(lt_layout l);
/* The identity tensor of shape S: each coordinate maps to itself.  (41,55) -> (41,55):(_1@0,_1@1) */
lt_view lt_identity_tensor(lt_val shape);
lt_layout lt_identity_layout(lt_val shape);
/* Evaluate a view at an index or coordinate (the element offset, or the coordinate). */
lt_val lt_view_eval(const lt_view *t, lt_val coord);
/* CuTe's Swizzle<B,M,S> applied to an offset x (an integer): the B bits of x from bit M + max(0,S)
 * (the "yyy" bits) are XORed into the B bits from bit M - min(0,S) (the "zzz" bits):
 *   x ^ ((x & yyy_mask) >> S)      (a negative S shifts left).
 * Requires 0 <= B, 0 <= M, |S| >= B, all bits below 62, 0 <= x < 2^62; static when x is.
 * A swizzled layout, CuTe's composition(Swizzle<B,M,S>{}, L), is this applied to L's offsets:
 * TMA's and wgmma's 128-byte swizzle of bytes is Swizzle<3,4,3>: the 16-byte chunk (bits 4-6)
 * of an offset is XORed with its 128-byte row modulo 8 (bits 7-9).
 *   (_3, _4, _3, 144) -> 128 + (1 ^ 1) * 16 = 128;   (_3, _4, _3, 400) -> 400 ^ (3 << 4) = 416 */
lt_val lt_swizzle(lt_val b, lt_val m, lt_val s, lt_val x);

/* Slice a view with a coordinate that holds `_`: the sub-view. */
lt_view lt_view_slice(const lt_view *t, lt_val coord);

/* inner_partition = zipped_divide, then slice the rest mode with coord (keeps the tile). */
lt_view lt_inner_partition(const lt_view *t, lt_val tiler, lt_val coord);
/* outer_partition = zipped_divide, then slice the tile mode with coord (keeps the rest). */
lt_view lt_outer_partition(const lt_view *t, lt_val tiler, lt_val coord);
/* local_tile(T, tiler, coord): the tile that `coord` selects; `_` keeps a mode of tiles.
 * = zipped_divide(T, tiler), then slice the rest mode at coord (an inner partition).
 *   ((4,6):(6,_1), (_2,_2), (1,1)) -> (_2,_2):(6,_1) at 14
 * @post result(i) == T(zipped_divide(T, tiler)(i, coord)) for every element i of the tile */
lt_view lt_local_tile(const lt_view *t, lt_val tiler, lt_val coord);
/* local_tile with a projection step: modes of tiler and coord where step is X are dropped.
 *   ((4,8):(8,_1), (_2,_2,_4), (0,0,_), (_1,X,_1)) -> (_2,_4,2):(8,_1,_4) at 0 */
lt_view lt_local_tile_proj(const lt_view *t, lt_val tiler, lt_val coord, lt_val step);
/* local_partition(T, thr, idx): the elements of thread idx of thread layout thr.
 * = zipped_divide(T, product_each(shape(thr))), then slice the tile mode at the thread's
 * coordinate thr.get_flat_coord(idx) (an outer partition).
 *   ((8,6):(_1,8), (_4,_2):(_1,_4), 1) -> (2,3):(_4,16) at 1
 * @post over all idx < size(thr) (thr a bijection), every element of T is taken exactly once */
lt_view lt_local_partition(const lt_view *t, lt_layout thr, lt_val index);
lt_view lt_local_partition_proj(const lt_view *t, lt_layout thr, lt_val index, lt_val step);

#ifdef __cplusplus
}
#endif
#endif /* LT_LAYOUT_H */
