/* lt_internal.h -- private helpers shared by the library's source files.
 *
 * Internally a value is read through `R`, a pointer to the root node of a subtree inside some
 * lt_val: a subtree is the contiguous run of `span` nodes starting there, so reading never copies.
 * Building always makes a new lt_val.
 *
 * Errors inside an operation are recorded in a thread-local slot (the first one wins) and the
 * operation goes on with harmless placeholder values; the public entry point turns a recorded
 * error into an error value.  Nothing ever reads or writes out of bounds.
 */
#ifndef LT_INTERNAL_H
#define LT_INTERNAL_H

#include "layout.h"

typedef const lt_node *R;

/* ---- errors ---------------------------------------------------------------------------------- */
void lt__fail(const char *fmt, ...);     /* record an error (the first one is kept) */
int  lt__failed(void);                   /* an error has been recorded */
void lt__reset(void);                    /* clear at the start of a public operation */
lt_val lt__finish(lt_val v);             /* at the end: attach a recorded error to v */
/* A public entry point: propagate errors in its inputs, then run with a clean error slot. */
#define LT_GUARD1(a)     do { if ((a).err) return (a); lt__reset(); } while (0)
#define LT_GUARD2(a, b)  do { if ((a).err) return (a); if ((b).err) return (b); lt__reset(); } while (0)

/* ---- reading --------------------------------------------------------------------------------- */
static inline R    root(const lt_val *v) { return v->nd; }
static inline int  is_tup(R r)   { return r->kind == LT_TUPLE; }
static inline int  is_lay(R r)   { return r->kind == LT_LAYOUT; }
static inline int  is_und(R r)   { return r->kind == LT_UNDER; }
static inline int  is_leaf(R r)  { return r->kind == LT_INT || r->kind == LT_UNDER; }
static inline int  is_basis(R r) { return r->kind == LT_INT && r->nb > 0; }
static inline int  is_sint(R r, int64_t v)   /* static integer v (`_` counts as _0) */
  { return (r->kind == LT_UNDER && v == 0) || (r->kind == LT_INT && r->nb == 0 && r->st && r->v == v); }
int rank_of(R r);                        /* arity of a tuple, 1 otherwise; layouts: their shape's */
R   child(R r, int i);                   /* child i of a tuple (r itself for i==0 on a leaf) */
static inline R shape_of(R l)  { return is_lay(l) ? child(l, 0) : l; }
static inline R stride_of(R l) { return is_lay(l) ? child(l, 1) : l; }
int all_static(R r);                     /* every integer leaf static */
int has_under(R r);
int tree_eq(R a, R b);                   /* same tree, same values and marks */

/* ---- building -------------------------------------------------------------------------------- */
lt_val V(R r);                           /* copy of a subtree */
lt_val Vint(int64_t v, int st);
lt_val Vunder(void);
lt_val Vtup0(void);                      /* () */
void   Tpush(lt_val *t, R x);            /* append x to the tuple t in place */
lt_val Vtup2(R a, R b);                  /* (a,b) */
lt_val Vtup1(R a);                       /* (a) */
lt_val Vlay(R s, R d);                   /* s:d */
lt_val Vlay_of_modes(const lt_val *modes_tuple_of_layouts); /* make_layout(l0,l1,...) */
lt_val Lmode(R l, int i);                /* get<i>(layout) */

/* CuTe's tuple algorithms (on any tree) */
lt_val append_(R t, R x);                /* append(t,x): non-tuple t gives (t,x) */
lt_val prepend_(R t, R x);
lt_val appendN(R t, int n, R x);         /* append<N>(t, x) */
lt_val replace_front_(R t, R x);
lt_val replace_back_(R t, R x);
lt_val remove_(R t, int i);
lt_val wrap_(R t);
lt_val unwrap_(R t);
lt_val flatten_(R t);
lt_val repeat_(int n, R x);              /* repeat<N>(x): x itself when N == 1 */
lt_val repeat_like_(R t, R x);
lt_val zip2_(R a, R b);                  /* zip(a, b) */
lt_val zip_(R t);
lt_val zip2_by_(R t, R guide);
lt_val slice_(R c, R t);
lt_val dice_(R c, R t);

/* ---- arithmetic with CuTe's static rules ------------------------------------------------------- */
lt_val A_add(R a, R b);                  /* +, incl. basis elements and arithmetic tuples */
lt_val A_sub(R a, R b);
lt_val A_mul(R a, R b);                  /* scalar * scalar (basis allowed on one side) */
lt_val A_div(R a, R b);
lt_val A_mod(R a, R b);
lt_val A_min(R a, R b);
lt_val A_abs(R a);
lt_val A_signum(R a);
lt_val A_ceil_div(R a, R b);             /* CuTe's ceil_div on int tuples */
int    A_eq_true(R a, R b);              /* is_constant<true, a == b> */
lt_val A_product(R t);                   /* product/size */
lt_val A_sum(R t);
lt_val A_inner_product(R a, R b);
lt_val A_as_arith(R t);
lt_val A_compact_left(R shape, R current);
lt_val A_compact_right(R shape, R current);
lt_val A_crd2idx(R c, R s, R d);
lt_val A_crd2idx_colex(R c, R s);        /* crd2idx(c, s) without strides */
lt_val A_idx2crd(R i, R s);
lt_val A_idx2crd3(R i, R s, R d);
lt_val A_coalesce_shape(R s);            /* coalesce(Shape) */
lt_val A_basis_like(R shape, int nb, const uint8_t *path);
lt_val A_coprofile(R layout);
lt_val A_basis_get(R e, R t);            /* basis_get(e, t) */
lt_val A_basis_value(R e);

/* ---- layout algorithms (lt_algebra.c) ---------------------------------------------------------- */
lt_val L_coalesce(R l);
lt_val L_coalesce_x(R l);
lt_val L_coalesce_prof(R l, R prof, int x);
lt_val L_filter_zeros(R l);
lt_val L_filter(R l);
lt_val L_composition(R a, R b);
lt_val L_composition_tiler(R a, R t);
lt_val L_complement(R l, R cotarget);
lt_val L_right_inverse(R l);
lt_val L_left_inverse(R l);
lt_val L_logical_divide(R l, R t);
lt_val L_zipped_divide(R l, R t);
lt_val L_tiled_divide(R l, R t);
lt_val L_flat_divide(R l, R t);
lt_val L_logical_product(R l, R t);
lt_val L_zipped_product(R l, R t);
lt_val L_tiled_product(R l, R t);
lt_val L_flat_product(R l, R t);
lt_val L_blocked_product(R a, R b);
lt_val L_raked_product(R a, R b);
lt_val L_slice(R c, R l);
lt_val L_dice(R c, R l);
lt_val L_cosize(R l);
lt_val L_make_layout(R shape);
lt_val L_make_layout_right(R shape);
lt_val L_appendN(R l, int n);            /* append<N>(layout) with _1:_0 modes */

#endif
