/* lt_api.c -- the public functions: argument checks, error propagation, tensor views. */
#include "lt_internal.h"

#include <string.h>

/* ---------------------------------------------------------------------------------------------
 * Argument checks
 * ------------------------------------------------------------------------------------------- */

static int int_tree(R r, int allow_under)
{
  for (int i = 0; i < r->span; ++i) {
    if (r[i].kind == LT_LAYOUT) return 0;
    if (r[i].kind == LT_UNDER && !allow_under) return 0;
  }
  return 1;
}

static int plain_ints(R r)
{
  for (int i = 0; i < r->span; ++i) if (r[i].kind == LT_INT && r[i].nb) return 0;
  return 1;
}

/* a shape: a tree of plain integers, none negative */
static int check_shape(R r, const char *who)
{
  if (!int_tree(r, 0) || !plain_ints(r)) { lt__fail("%s: expected a shape (a tuple of integers)", who); return 0; }
  for (int i = 0; i < r->span; ++i)
    if (r[i].kind == LT_INT && r[i].v < 0) { lt__fail("%s: a shape cannot be negative (%lld)", who, (long long)r[i].v); return 0; }
  return 1;
}

static int check_layout(R r, const char *who)
{
  if (!is_lay(r)) { lt__fail("%s: expected a layout (S:D), found %s", who, is_tup(r) ? "a tuple" : "an integer"); return 0; }
  return check_shape(child(r, 0), who);
}

/* a tiler: a layout, an integer, `_`, or a tuple of tilers */
static int check_tiler(R r, const char *who)
{
  if (is_lay(r)) return check_layout(r, who);
  if (is_und(r)) return 1;
  if (is_tup(r)) {
    for (int i = 0; i < r->arity; ++i) if (!check_tiler(child(r, i), who)) return 0;
    return 1;
  }
  if (r->nb) { lt__fail("%s: a basis element is not a tiler", who); return 0; }
  if (r->v < 0) { lt__fail("%s: a tile size cannot be negative", who); return 0; }
  return 1;
}

static int check_coord(R r, const char *who)
{
  if (!int_tree(r, 1) || !plain_ints(r)) { lt__fail("%s: expected a coordinate (integers and _)", who); return 0; }
  return 1;
}

#define BEGIN1(a)    LT_GUARD1(a); R A = root(&(a)); (void)A
#define BEGIN2(a, b) LT_GUARD2(a, b); R A = root(&(a)); R B = root(&(b)); (void)A; (void)B

/* ---------------------------------------------------------------------------------------------
 * Integer tuples and layouts
 * ------------------------------------------------------------------------------------------- */

lt_val lt_size(lt_val x)
{
  BEGIN1(x);
  R s = is_lay(A) ? child(A, 0) : A;
  if (!check_shape(s, "size")) return lt__finish(Vint(0, 0));
  return lt__finish(A_product(s));
}

lt_val lt_cosize(lt_val l)
{
  BEGIN1(l);
  if (!check_layout(A, "cosize")) return lt__finish(Vint(0, 0));
  return lt__finish(L_cosize(A));
}

lt_val lt_rank(lt_val x)  { BEGIN1(x); return lt__finish(Vint(rank_of(A), 1)); }

static int depth_of(R r)
{
  if (!is_tup(r)) return 0;
  int m = 0;
  for (int i = 0; i < r->arity; ++i) { int d = depth_of(child(r, i)); if (d > m) m = d; }
  return 1 + m;
}

lt_val lt_depth(lt_val x) { BEGIN1(x); return lt__finish(Vint(depth_of(shape_of(A)), 1)); }

lt_val lt_crd2idx(lt_layout l, lt_val c)
{
  BEGIN2(l, c);
  if (!check_layout(A, "crd2idx") || !check_coord(B, "crd2idx")) return lt__finish(Vint(0, 0));
  return lt__finish(A_crd2idx(B, child(A, 0), child(A, 1)));
}

lt_val lt_idx2crd(lt_val s, lt_val i)
{
  BEGIN2(s, i);
  if (!check_shape(A, "idx2crd") || !check_coord(B, "idx2crd")) return lt__finish(Vint(0, 0));
  return lt__finish(A_idx2crd(B, A));
}

lt_val lt_idx2crd_strided(lt_val i, lt_val s, lt_val d)
{
  LT_GUARD2(i, s);
  if (d.err) return d;
  if (!check_shape(root(&s), "idx2crd")) return lt__finish(Vint(0, 0));
  return lt__finish(A_idx2crd3(root(&i), root(&s), root(&d)));
}

lt_layout lt_make_layout(lt_val s)
{
  BEGIN1(s);
  if (!check_shape(A, "make_layout")) return lt__finish(Vint(0, 0));
  return lt__finish(L_make_layout(A));
}

lt_layout lt_make_layout_right(lt_val s)
{
  BEGIN1(s);
  if (!check_shape(A, "make_layout_right")) return lt__finish(Vint(0, 0));
  return lt__finish(L_make_layout_right(A));
}

lt_layout lt_make_layout_of(int n, const lt_layout *modes)
{
  for (int i = 0; i < n; ++i) if (modes[i].err) return modes[i];
  lt__reset();
  lt_val t = Vtup0();
  for (int i = 0; i < n; ++i) {
    if (!is_lay(root(&modes[i]))) { lt__fail("make_layout: mode %d is not a layout", i); break; }
    Tpush(&t, root(&modes[i]));
  }
  if (lt__failed()) return lt__finish(Vint(0, 0));
  return lt__finish(Vlay_of_modes(&t));
}

/* ---------------------------------------------------------------------------------------------
 * Tuple manipulation
 * ------------------------------------------------------------------------------------------- */

static lt_val on_layout_or_tuple(lt_val x, lt_val (*f)(R))
{
  R A = root(&x);
  if (is_lay(A)) {
    lt_val s = f(child(A, 0)), d = f(child(A, 1));
    return lt__finish(Vlay(root(&s), root(&d)));
  }
  return lt__finish(f(A));
}

lt_val lt_flatten(lt_val x) { LT_GUARD1(x); return on_layout_or_tuple(x, flatten_); }
lt_val lt_zip(lt_val x)     { LT_GUARD1(x); return on_layout_or_tuple(x, zip_); }

lt_val lt_append(lt_val x, lt_val e)
{
  BEGIN2(x, e);
  if (is_lay(A) && is_lay(B)) {
    lt_val s = append_(child(A, 0), child(B, 0)), d = append_(child(A, 1), child(B, 1));
    return lt__finish(Vlay(root(&s), root(&d)));
  }
  return lt__finish(append_(A, B));
}

lt_val lt_prepend(lt_val x, lt_val e)
{
  BEGIN2(x, e);
  if (is_lay(A) && is_lay(B)) {
    lt_val s = prepend_(child(A, 0), child(B, 0)), d = prepend_(child(A, 1), child(B, 1));
    return lt__finish(Vlay(root(&s), root(&d)));
  }
  return lt__finish(prepend_(A, B));
}

lt_layout lt_zip_layouts(lt_layout a, lt_layout b)
{
  BEGIN2(a, b);
  if (!check_layout(A, "zip") || !check_layout(B, "zip")) return lt__finish(Vint(0, 0));
  lt_val s = zip2_(child(A, 0), child(B, 0)), d = zip2_(child(A, 1), child(B, 1));
  return lt__finish(Vlay(root(&s), root(&d)));
}

lt_val lt_slice(lt_val c, lt_val x)
{
  BEGIN2(c, x);
  if (is_lay(B)) return lt__finish(L_slice(A, B));
  return lt__finish(slice_(A, B));
}

lt_val lt_dice(lt_val c, lt_val x)
{
  BEGIN2(c, x);
  if (is_lay(B)) return lt__finish(L_dice(A, B));
  return lt__finish(dice_(A, B));
}

/* ---------------------------------------------------------------------------------------------
 * The algebra
 * ------------------------------------------------------------------------------------------- */

#define LAYOUT_OP1(name, impl)                                                       \
  lt_layout name(lt_layout l)                                                        \
  {                                                                                  \
    BEGIN1(l);                                                                       \
    if (!check_layout(A, #impl)) return lt__finish(Vint(0, 0));                      \
    return lt__finish(impl(A));                                                      \
  }

static lt_val coalesce_(R l)      { return L_coalesce(l); }
static lt_val filter_(R l)        { return L_filter(l); }
static lt_val right_inverse_(R l) { return L_right_inverse(l); }
static lt_val left_inverse_(R l)  { return L_left_inverse(l); }

LAYOUT_OP1(lt_coalesce, coalesce_)
LAYOUT_OP1(lt_filter, filter_)
LAYOUT_OP1(lt_right_inverse, right_inverse_)
LAYOUT_OP1(lt_left_inverse, left_inverse_)

lt_layout lt_coalesce_profile(lt_layout l, lt_val p)
{
  BEGIN2(l, p);
  if (!check_layout(A, "coalesce")) return lt__finish(Vint(0, 0));
  return lt__finish(L_coalesce_prof(A, B, 0));
}

lt_layout lt_composition(lt_layout a, lt_layout b)
{
  BEGIN2(a, b);
  if (!check_layout(A, "composition") || !check_layout(B, "composition")) return lt__finish(Vint(0, 0));
  return lt__finish(L_composition(A, B));
}

#define TILER_OP(name, impl, who)                                                    \
  lt_layout name(lt_layout a, lt_val t)                                              \
  {                                                                                  \
    BEGIN2(a, t);                                                                    \
    if (!check_layout(A, who) || !check_tiler(B, who)) return lt__finish(Vint(0, 0)); \
    return lt__finish(impl(A, B));                                                   \
  }

TILER_OP(lt_composition_tiler, L_composition_tiler, "composition")
TILER_OP(lt_logical_divide, L_logical_divide, "logical_divide")
TILER_OP(lt_zipped_divide, L_zipped_divide, "zipped_divide")
TILER_OP(lt_tiled_divide, L_tiled_divide, "tiled_divide")
TILER_OP(lt_flat_divide, L_flat_divide, "flat_divide")
TILER_OP(lt_logical_product, L_logical_product, "logical_product")
TILER_OP(lt_zipped_product, L_zipped_product, "zipped_product")
TILER_OP(lt_tiled_product, L_tiled_product, "tiled_product")
TILER_OP(lt_flat_product, L_flat_product, "flat_product")

lt_layout lt_complement(lt_layout a, lt_val cot)
{
  BEGIN2(a, cot);
  if (!check_layout(A, "complement")) return lt__finish(Vint(0, 0));
  if (!is_lay(B) && !check_shape(B, "complement")) return lt__finish(Vint(0, 0));
  return lt__finish(L_complement(A, B));
}

lt_layout lt_complement1(lt_layout a)
{
  BEGIN1(a);
  if (!check_layout(A, "complement")) return lt__finish(Vint(0, 0));
  lt_val f = L_filter(A);
  lt_val cs = L_cosize(root(&f));
  return lt__finish(L_complement(A, root(&cs)));
}

lt_layout lt_blocked_product(lt_layout a, lt_layout b)
{
  BEGIN2(a, b);
  if (!check_layout(A, "blocked_product") || !check_layout(B, "blocked_product")) return lt__finish(Vint(0, 0));
  return lt__finish(L_blocked_product(A, B));
}

lt_layout lt_raked_product(lt_layout a, lt_layout b)
{
  BEGIN2(a, b);
  if (!check_layout(A, "raked_product") || !check_layout(B, "raked_product")) return lt__finish(Vint(0, 0));
  return lt__finish(L_raked_product(A, B));
}

/* ---------------------------------------------------------------------------------------------
 * Tensor views
 *
 * A view is (layout, offset).  Over memory (CuTe: a pointer or a counting iterator) the offset is a
 * plain element offset, always a run-time integer.  Over an identity tensor the "offset" is the
 * coordinate of the first element, an arithmetic tuple shaped like the codomain.
 * ------------------------------------------------------------------------------------------- */

static lt_view view_err(const lt_val *e)
{
  lt_view v;
  v.layout = *e;
  v.offset = *e;
  return v;
}

static lt_view view_finish(lt_val layout, lt_val offset)
{
  lt_view v;
  if (lt__failed()) {
    lt_val e = lt__finish(Vint(0, 0));
    v.layout = e; v.offset = e;
    return v;
  }
  v.layout = layout;
  v.offset = offset;
  return v;
}

static int view_is_identity(const lt_view *t)
{
  R o = root(&t->offset);
  return !(o->kind == LT_INT && o->nb == 0 && !o->st) || is_tup(o);
}

/* data + offset: a memory view stays a run-time integer; an identity view adds coordinates */
static lt_val advance(const lt_view *t, R off)
{
  if (!view_is_identity(t)) {
    if (is_tup(off) || is_basis(off)) {
      lt__fail("the layout has basis strides (an identity layout): its offsets are coordinates, "
               "so it is not a tensor over memory (use identity_tensor or identity_local_tile)");
      return Vint(0, 0);
    }
    lt_val sum = A_add(root(&t->offset), off);
    sum.nd[0].st = 0;
    return sum;
  }
  return A_add(root(&t->offset), off);
}

static lt_view slice_view(const lt_view *t, R c)
{
  R L = root(&t->layout);
  lt_val off = A_crd2idx(c, child(L, 0), child(L, 1));
  lt_val sl = L_slice(c, L);
  lt_val o = advance(t, root(&off));
  lt_view v;
  v.layout = sl;
  v.offset = o;
  return v;
}

lt_view lt_slice_and_offset(lt_val c, lt_layout l)
{
  if (c.err) return view_err(&c);
  if (l.err) return view_err(&l);
  lt__reset();
  R A = root(&l), C = root(&c);
  if (!check_layout(A, "slice") || !check_coord(C, "slice")) return view_finish(l, l);
  lt_val off = A_crd2idx(C, child(A, 0), child(A, 1));
  lt_val sl = L_slice(C, A);
  return view_finish(sl, off);
}

lt_view lt_tensor(lt_layout l)
{
  if (l.err) return view_err(&l);
  lt__reset();
  if (!check_layout(root(&l), "tensor")) return view_finish(l, l);
  return view_finish(l, Vint(0, 0));
}

lt_layout lt_identity_layout(lt_val s)
{
  BEGIN1(s);
  if (!check_shape(A, "identity_layout")) return lt__finish(Vint(0, 0));
  lt_val b = A_basis_like(A, 0, NULL);
  return lt__finish(Vlay(A, root(&b)));
}

lt_view lt_identity_tensor(lt_val s)
{
  if (s.err) return view_err(&s);
  lt__reset();
  R A = root(&s);
  if (!check_shape(A, "identity_tensor")) return view_finish(s, s);
  lt_val b = A_basis_like(A, 0, NULL);
  lt_val l = Vlay(A, root(&b));
  lt_val origin = A_coprofile(root(&l));
  return view_finish(l, origin);
}

lt_val lt_view_eval(const lt_view *t, lt_val c)
{
  if (t->layout.err) return t->layout;
  LT_GUARD1(c);
  R L = root(&t->layout);
  if (!check_coord(root(&c), "eval")) return lt__finish(Vint(0, 0));
  if (has_under(root(&c))) { lt__fail("eval: the coordinate holds _ (use a slice)"); return lt__finish(Vint(0, 0)); }
  lt_val off = A_crd2idx(root(&c), child(L, 0), child(L, 1));
  return lt__finish(advance(t, root(&off)));
}

lt_view lt_view_slice(const lt_view *t, lt_val c)
{
  if (t->layout.err) return *t;
  if (c.err) return view_err(&c);
  lt__reset();
  if (!check_coord(root(&c), "slice")) return view_finish(c, c);
  lt_view v = slice_view(t, root(&c));
  return view_finish(v.layout, v.offset);
}

/* inner_partition: zipped_divide, then slice the rest mode (coord padded with _ to its rank) */
static lt_view partition(const lt_view *t, R tiler, R coord, int inner, const char *who)
{
  lt_val z = L_zipped_divide(root(&t->layout), tiler);
  if (lt__failed()) return view_finish(z, z);
  R Z = root(&z);
  lt_view tv = { z, t->offset };
  int r0 = rank_of(child(child(Z, 0), 0)), r1 = rank_of(child(child(Z, 0), 1));
  lt_val u = Vunder();
  lt_val keep = repeat_(inner ? r0 : r1, root(&u));
  int want = inner ? r1 : r0;
  if (is_tup(coord) && coord->arity > want) {
    lt__fail("%s: the coordinate has %d modes, but the %s mode it indexes has %d", who, coord->arity,
             inner ? "rest" : "tile", want);
    return view_finish(z, z);
  }
  lt_val sel = is_tup(coord) ? appendN(coord, want, root(&u)) : V(coord);
  lt_val c = inner ? Vtup2(root(&keep), root(&sel)) : Vtup2(root(&sel), root(&keep));
  lt_view v = slice_view(&tv, root(&c));
  return view_finish(v.layout, v.offset);
}

static lt_view partition_api(const lt_view *t, lt_val tiler, lt_val coord, int inner, const char *who)
{
  if (t->layout.err) return *t;
  if (tiler.err) return view_err(&tiler);
  if (coord.err) return view_err(&coord);
  lt__reset();
  if (!check_tiler(root(&tiler), who) || !check_coord(root(&coord), who)) return view_finish(tiler, tiler);
  return partition(t, root(&tiler), root(&coord), inner, who);
}

lt_view lt_inner_partition(const lt_view *t, lt_val tiler, lt_val coord) { return partition_api(t, tiler, coord, 1, "inner_partition"); }
lt_view lt_outer_partition(const lt_view *t, lt_val tiler, lt_val coord) { return partition_api(t, tiler, coord, 0, "outer_partition"); }
lt_view lt_local_tile(const lt_view *t, lt_val tiler, lt_val coord)      { return partition_api(t, tiler, coord, 1, "local_tile"); }

lt_view lt_local_tile_proj(const lt_view *t, lt_val tiler, lt_val coord, lt_val step)
{
  if (step.err) return view_err(&step);
  if (tiler.err) return view_err(&tiler);
  if (coord.err) return view_err(&coord);
  lt__reset();
  if (!check_coord(root(&step), "local_tile")) return view_finish(step, step);
  lt_val dt = is_lay(root(&tiler)) ? L_dice(root(&step), root(&tiler)) : dice_(root(&step), root(&tiler));
  lt_val dc = dice_(root(&step), root(&coord));
  if (lt__failed()) return view_finish(dt, dt);
  return lt_local_tile(t, dt, dc);
}

lt_view lt_local_partition(const lt_view *t, lt_layout thr, lt_val index)
{
  if (t->layout.err) return *t;
  if (thr.err) return view_err(&thr);
  if (index.err) return view_err(&index);
  lt__reset();
  R T = root(&thr), I = root(&index);
  if (!check_layout(T, "local_partition")) return view_finish(thr, thr);
  if (!(I->kind == LT_INT && I->nb == 0)) { lt__fail("local_partition: the thread index must be an integer"); return view_finish(thr, thr); }
  /* tiler = product_each(shape(thr)); coord = thr.get_flat_coord(index) */
  lt_val ws = wrap_(child(T, 0));
  lt_val tiler = Vtup0();
  for (int i = 0; i < root(&ws)->arity; ++i) { lt_val p = A_product(child(root(&ws), i)); Tpush(&tiler, root(&p)); }
  lt_val hier = A_idx2crd3(I, child(T, 0), child(T, 1));
  lt_val coord;
  if (is_tup(child(T, 0)) && child(T, 0)->arity >= 2) {   /* crd2crd mode by mode */
    coord = Vtup0();
    for (int i = 0; i < child(T, 0)->arity; ++i) {
      lt_val ci = A_crd2idx_colex(child(root(&hier), i), child(child(T, 0), i));
      Tpush(&coord, root(&ci));
    }
  } else {
    coord = A_crd2idx_colex(root(&hier), child(T, 0));
  }
  if (lt__failed()) return view_finish(thr, thr);
  return partition(t, root(&tiler), root(&coord), 0, "local_partition");
}

lt_view lt_local_partition_proj(const lt_view *t, lt_layout thr, lt_val index, lt_val step)
{
  if (step.err) return view_err(&step);
  if (thr.err) return view_err(&thr);
  lt__reset();
  if (!check_layout(root(&thr), "local_partition")) return view_finish(thr, thr);
  lt_val d = L_dice(root(&step), root(&thr));
  if (lt__failed()) return view_finish(d, d);
  return lt_local_partition(t, d, index);
}

/* ------------------------------------------------------------------------------------------------
 * Swizzle<B,M,S> on an offset
 * ---------------------------------------------------------------------------------------------- */

lt_val lt_swizzle(lt_val b, lt_val m, lt_val s, lt_val x)
{
  LT_GUARD2(b, m);
  LT_GUARD2(s, x);
  if (!lt_is_int(&b) || !lt_is_int(&m) || !lt_is_int(&s) || !lt_is_int(&x))
    return lt_error_val("swizzle: B, M, S and the offset must be integers");
  int64_t B = lt_value(&b), M = lt_value(&m), S = lt_value(&s), X = lt_value(&x);
  int64_t aS = S < 0 ? -S : S;
  if (B < 0 || M < 0 || aS < B)
    return lt_error_val("swizzle: needs B >= 0, M >= 0 and |S| >= B (got %lld, %lld, %lld)", (long long)B,
                        (long long)M, (long long)S);
  if (M + aS + B > 62) return lt_error_val("swizzle: bits past 62 (B + M + |S| = %lld)", (long long)(B + M + aS));
  if (X < 0 || X >= ((int64_t)1 << 62)) return lt_error_val("swizzle: the offset %lld is outside [0, 2^62)", (long long)X);
  int64_t bits = ((int64_t)1 << B) - 1;
  int64_t yyy = bits << (M + (S > 0 ? S : 0));
  int64_t y = X & yyy;
  int64_t r = X ^ (S >= 0 ? y >> S : y << -S);
  return lt_is_static(&x) ? lt_static(r) : lt_int(r);
}
