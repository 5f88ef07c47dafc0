/* lt_algebra.c -- coalesce, composition, complement, inverses, divides and products.
 *
 * Each function follows CuTe's definition step by step (layout.hpp), because the *structure* of
 * CuTe's result -- its rank, its nesting, which modes merge -- is decided by which integers are
 * static.  The comments give the cases in the order CuTe tests them.
 */
#include "lt_internal.h"

static lt_val S0(void) { return Vint(0, 1); }
static lt_val S1(void) { return Vint(1, 1); }

static int is_static_leaf(R r) { return is_leaf(r) && (r->kind == LT_UNDER || r->st); }

/* ---------------------------------------------------------------------------------------------
 * make_layout and friends
 * ------------------------------------------------------------------------------------------- */

lt_val L_make_layout(R shape)
{
  lt_val one = S1();
  lt_val d = A_compact_left(shape, root(&one));
  return Vlay(shape, root(&d));
}

lt_val L_make_layout_right(R shape)
{
  lt_val one = S1();
  lt_val d = A_compact_right(shape, root(&one));
  return Vlay(shape, root(&d));
}

/* append<N>(layout): pad with _1:_0 modes */
lt_val L_appendN(R l, int n)
{
  lt_val one = S1(), zero = S0();
  lt_val s = appendN(shape_of(l), n, root(&one));
  lt_val d = appendN(stride_of(l), n, root(&zero));
  return Vlay(root(&s), root(&d));
}

/* transform_layout(layout, tiler, f): f on the common modes; the layout's extra modes are kept
 * (keep_rest) or dropped.  The result is make_layout(modes...), so a single mode is wrapped. */
typedef lt_val (*mode_fn)(R, R);

static lt_val transform_layout(R l, R t, mode_fn f, int keep_rest, const char *who)
{
  int rl = rank_of(l), rt = t->arity;
  if (rt > rl) { lt__fail("%s: the tiler has more modes (%d) than the layout (%d)", who, rt, rl); return V(l); }
  lt_val modes = Vtup0();
  for (int i = 0; i < rt; ++i) {
    lt_val li = Lmode(l, i);
    lt_val r = f(root(&li), child(t, i));
    if (!is_lay(root(&r))) { lt__fail("%s: internal: mode is not a layout", who); return V(l); }
    Tpush(&modes, root(&r));
  }
  if (keep_rest)
    for (int i = rt; i < rl; ++i) { lt_val li = Lmode(l, i); Tpush(&modes, root(&li)); }
  return Vlay_of_modes(&modes);
}

/* ---------------------------------------------------------------------------------------------
 * Coalesce and filter
 *
 * Walk the flattened modes from the back, keeping a "front" (new_shape:new_stride):
 *   s:d with s == _1                      -> skip it
 *   front is _1                           -> the front becomes s:d
 *   front static and s*d == front stride  -> merge: front shape *= s, front stride = d
 *   otherwise                             -> prepend s:d
 * (the merge test must hold at compile time: dynamic values never merge).
 * ------------------------------------------------------------------------------------------- */

static lt_val bw_coalesce(R fs, R fd, lt_val ns, lt_val nd, int last)
{
  for (int i = last; i >= 0; --i) {
    R s = child(fs, i), d = child(fd, i);
    R nsr = root(&ns), ndr = root(&nd);
    if (is_sint(s, 1)) continue;
    if (!is_tup(nsr) && is_sint(nsr, 1)) { ns = V(s); nd = V(d); continue; }
    R front_s = is_tup(nsr) ? child(nsr, 0) : nsr;
    R front_d = is_tup(ndr) ? child(ndr, 0) : ndr;
    lt_val sd = A_mul(s, d);
    if (all_static(front_s) && A_eq_true(root(&sd), front_d)) {
      lt_val m = A_mul(s, front_s);
      ns = replace_front_(nsr, root(&m));
      nd = replace_front_(ndr, d);
    } else {
      ns = prepend_(nsr, s);
      nd = prepend_(ndr, d);
    }
  }
  if (!is_tup(root(&ns)) && is_sint(root(&ns), 1)) { lt_val a = S1(), b = S0(); return Vlay(root(&a), root(&b)); }
  return Vlay(root(&ns), root(&nd));
}

static lt_val coalesce_impl(R l, int x)
{
  lt_val fs = flatten_(shape_of(l)), fd = flatten_(stride_of(l));
  R FS = root(&fs), FD = root(&fd);
  int r = rank_of(FS);
  if (r == 0) return V(l);
  R ls = child(FS, r - 1), ld = child(FD, r - 1);
  lt_val ns = (x && is_sint(ls, 1)) ? Vint(2, 1) : V(ls);   /* coalesce_x keeps a trailing stride */
  return bw_coalesce(FS, FD, ns, V(ld), r - 2);
}

lt_val L_coalesce(R l)   { return coalesce_impl(l, 0); }
lt_val L_coalesce_x(R l) { return coalesce_impl(l, 1); }

static lt_val coalesce_mode(R l, R p)   { return L_coalesce_prof(l, p, 0); }
static lt_val coalesce_x_mode(R l, R p) { return L_coalesce_prof(l, p, 1); }

/* coalesce(layout, profile): coalesce at the terminals of the profile */
lt_val L_coalesce_prof(R l, R p, int x)
{
  if (is_tup(p)) return transform_layout(l, p, x ? coalesce_x_mode : coalesce_mode, 1, "coalesce");
  return coalesce_impl(l, x);
}

/* filter_zeros: a mode with a static-0 stride gets shape _1 */
static lt_val filter_zeros_shape(R d, R s)
{
  if (is_tup(d)) {
    if (!is_tup(s) || s->arity != d->arity) { lt__fail("filter: shape and stride differ"); return V(s); }
    lt_val r = Vtup0();
    for (int i = 0; i < d->arity; ++i) { lt_val c = filter_zeros_shape(child(d, i), child(s, i)); Tpush(&r, root(&c)); }
    return r;
  }
  return is_sint(d, 0) ? S1() : V(s);
}

lt_val L_filter_zeros(R l)
{
  lt_val s = filter_zeros_shape(stride_of(l), shape_of(l));
  return Vlay(root(&s), stride_of(l));
}

lt_val L_filter(R l)
{
  lt_val z = L_filter_zeros(l);
  return L_coalesce(root(&z));
}

/* ---------------------------------------------------------------------------------------------
 * Composition
 * ------------------------------------------------------------------------------------------- */

static lt_val composition_impl(R ls, R ld, R rs, R rd)
{
  /* tuple RHS: right-distributive, mode by mode */
  if (is_tup(rs)) {
    if (!is_tup(rd) || rd->arity != rs->arity) { lt__fail("composition: shape and stride differ"); return Vlay(rs, rd); }
    lt_val modes = Vtup0();
    for (int i = 0; i < rs->arity; ++i) {
      lt_val m = composition_impl(ls, ld, child(rs, i), child(rd, i));
      Tpush(&modes, root(&m));
    }
    return Vlay_of_modes(&modes);
  }
  /* a basis-element stride on the RHS picks the LHS mode it names */
  if (is_basis(rd)) {
    lt_val s = A_basis_get(rd, ls), d = A_basis_get(rd, ld), v = A_basis_value(rd);
    return composition_impl(root(&s), root(&d), rs, root(&v));
  }
  /* static stride-0 RHS */
  if (is_sint(rd, 0)) return Vlay(rs, rd);
  /* integral LHS */
  if (!is_tup(ls)) { lt_val d = A_mul(rd, ld); return Vlay(rs, root(&d)); }

  /* general case: LHS tuple, RHS integral -- walk the LHS modes, dividing out the RHS stride
   * and then the RHS shape */
  int r = ls->arity;
  if (r == 0) { lt__fail("composition: empty layout"); return Vlay(rs, rd); }
  lt_val res_s = Vtup0(), res_d = Vtup0();
  lt_val rest_s = V(rs), rest_d = V(rd);
  for (int i = 0; i + 1 < r; ++i) {
    R cs = child(ls, i), cd = child(ld, i);
    R RS = root(&rest_s), RD = root(&rest_d);
    /* CuTe asserts the divisibility conditions when the values are static and silently
     * computes a wrong layout when they are not; the library checks the values either way. */
    int checked = (all_static(cs) && all_static(RD)) || RS->v != 1;   /* a size-1 rest maps only 0 */
    if (checked && cs->v != 0 && !(RD->v % cs->v == 0 || RD->v < cs->v)) {
      lt__fail("composition: stride divisibility condition fails (stride %lld against shape %lld)",
               (long long)RD->v, (long long)cs->v);
      return Vlay(rs, rd);
    }
    lt_val ard = A_abs(RD);
    lt_val next_s = A_ceil_div(cs, root(&ard));
    lt_val q = A_ceil_div(root(&ard), cs), sg = A_signum(RD);
    lt_val next_d = A_mul(root(&q), root(&sg));
    if (is_sint(root(&next_s), 1) || is_sint(RS, 1)) {
      rest_d = next_d;
      continue;
    }
    lt_val new_s = A_min(root(&next_s), RS);
    if (root(&new_s)->v != 0 && RS->v % root(&new_s)->v != 0) {
      lt__fail("composition: shape divisibility condition fails (shape %lld against %lld)",
               (long long)RS->v, (long long)root(&new_s)->v);
      return Vlay(rs, rd);
    }
    lt_val nd = A_mul(RD, cd);
    Tpush(&res_s, root(&new_s));
    Tpush(&res_d, root(&nd));
    rest_s = A_div(RS, root(&new_s));
    rest_d = next_d;
  }
  R last_d = child(ld, r - 1);
  lt_val tail_d = A_mul(root(&rest_d), last_d);
  if (root(&res_s)->arity == 0) return Vlay(root(&rest_s), root(&tail_d));
  if (is_sint(root(&rest_s), 1)) {
    lt_val us = unwrap_(root(&res_s)), ud = unwrap_(root(&res_d));
    return Vlay(root(&us), root(&ud));
  }
  Tpush(&res_s, root(&rest_s));
  Tpush(&res_d, root(&tail_d));
  return Vlay(root(&res_s), root(&res_d));
}

lt_val L_composition(R a, R b)
{
  lt_val prof = A_coprofile(b);
  lt_val flat = L_coalesce_prof(a, root(&prof), 1);
  R f = root(&flat);
  return composition_impl(child(f, 0), child(f, 1), child(b, 0), child(b, 1));
}

/* composition with a tiler: a tuple applies by mode (LHS modes past the tiler are dropped),
 * `_` keeps the mode, an integer n is the layout n:_1, a layout composes. */
static lt_val comp_tiler_mode(R l, R t) { return L_composition_tiler(l, t); }

lt_val L_composition_tiler(R a, R t)
{
  if (is_lay(t)) return L_composition(a, t);
  if (is_tup(t)) return transform_layout(a, t, comp_tiler_mode, 0, "composition");
  if (is_und(t)) return V(a);
  if (is_basis(t)) { lt__fail("composition: a basis element is not a tiler"); return V(a); }
  lt_val flat = L_coalesce_x(a);
  lt_val one = S1();
  return composition_impl(child(root(&flat), 0), child(root(&flat), 1), t, root(&one));
}

/* ---------------------------------------------------------------------------------------------
 * Complement
 * ------------------------------------------------------------------------------------------- */

/* A zero new shape: for static values CuTe refuses the layout as non-injective; for dynamic ones it
 * goes on and prints a mode of size 0, which the library refuses instead. */
static void complement_zero(R new_shape)
{
  if (all_static(new_shape))
    lt__fail("complement: the layout is not injective (CuTe: \"Non-injective Layout detected in complement\")");
  else
    lt__fail("complement: a mode of size 0 would result: two modes overlap, or a dynamic size-1 mode sits between them (a static _1 would be dropped)");
}

static lt_val complement_impl(R shape, R stride, R cotarget)
{
  if (!is_tup(stride) && is_sint(stride, 0)) {           /* irreducible stride-0 layout */
    lt_val c = A_coalesce_shape(cotarget);
    return L_make_layout(root(&c));
  }
  int r = rank_of(shape);
  if (r != 1 && !all_static(stride)) {
    lt__fail("complement: a layout of rank %d needs static strides (CuTe: \"Dynamic-stride complement only for rank-1 layouts\")", r);
    return Vlay(shape, stride);
  }
  for (int i = 0; i < stride->span; ++i)
    if (stride[i].kind == LT_INT && stride[i].nb) { lt__fail("complement: basis-element strides are not supported"); return Vlay(shape, stride); }
  lt_val sh = V(shape), st = V(stride);
  lt_val res_s = Vtup0(), one = S1(), res_d = Vtup1(root(&one));
  for (int i = 0; i + 1 < r; ++i) {
    R SH = root(&sh), ST = root(&st);
    /* the smallest stride (first of equals), then remove that mode */
    int min_i = 0;
    for (int k = 1; k < ST->arity; ++k)
      if (child(ST, k)->v < child(ST, min_i)->v) min_i = k;
    R ms = child(ST, min_i);
    lt_val new_s = A_div(ms, child(root(&res_d), i));
    if (root(&new_s)->v == 0) {       /* CuTe checks this only for static values */
      complement_zero(root(&new_s));
      return Vlay(shape, stride);
    }
    lt_val new_d = A_mul(ms, child(SH, min_i));
    Tpush(&res_s, root(&new_s));
    Tpush(&res_d, root(&new_d));
    lt_val nsh = remove_(SH, min_i), nst = remove_(ST, min_i);
    sh = nsh; st = nst;
  }
  R s0 = child(root(&sh), 0), d0 = child(root(&st), 0);
  lt_val new_s = A_div(d0, child(root(&res_d), r - 1));
  if (root(&new_s)->v == 0) {
    complement_zero(root(&new_s));
    return Vlay(shape, stride);
  }
  Tpush(&res_s, root(&new_s));
  lt_val new_d = A_mul(d0, s0);
  lt_val cd = A_ceil_div(cotarget, root(&new_d));
  lt_val rest_s = A_coalesce_shape(root(&cd));
  lt_val rest_d = A_compact_left(root(&rest_s), root(&new_d));
  lt_val S = Vtup2(root(&res_s), root(&rest_s)), D = Vtup2(root(&res_d), root(&rest_d));
  lt_val l = Vlay(root(&S), root(&D));
  return L_coalesce(root(&l));
}

lt_val L_complement(R l, R cotarget)
{
  lt_val f = L_filter(l);
  R cot = is_lay(cotarget) ? child(cotarget, 0) : cotarget;
  if (has_under(cot)) { lt__fail("complement: the cotarget must be an integer or a shape"); return f; }
  for (int i = 0; i < cot->span; ++i)
    if (cot[i].kind == LT_INT && cot[i].nb) { lt__fail("complement: the cotarget must be an integer or a shape"); return f; }
  return complement_impl(child(root(&f), 0), child(root(&f), 1), cot);
}

/* ---------------------------------------------------------------------------------------------
 * Inverses
 * ------------------------------------------------------------------------------------------- */

static lt_val prefix_products(R lshape)
{
  lt_val one = S1();
  lt_val pre = Vtup1(root(&one));
  for (int i = 0; i < lshape->arity; ++i) {
    lt_val p = A_mul(child(lshape, i), child(root(&pre), root(&pre)->arity - 1));
    Tpush(&pre, root(&p));
  }
  return pre;
}

/* The modes' indices ordered by their (static) strides.  CuTe sorts with an exchange sort,
 * which does not keep equal strides in their original order; the order of equal strides shows
 * in the result (left_inverse((1,6,3):(_3,_3,_1)) is (_3,1):(6,_1)), so the same sort is used. */
static int sort_by_stride(R lstride, int only_static, int *idx)
{
  int n = 0;
  for (int i = 0; i < lstride->arity; ++i)
    if (!only_static || is_static_leaf(child(lstride, i))) idx[n++] = i;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (child(lstride, idx[j])->v < child(lstride, idx[i])->v) { int t = idx[j]; idx[j] = idx[i]; idx[i] = t; }
  return n;
}

lt_val L_right_inverse(R l)
{
  lt_val c = L_coalesce(l);
  lt_val ws = wrap_(child(root(&c), 0)), wd = wrap_(child(root(&c), 1));
  R lshape = root(&ws), lstride = root(&wd);
  for (int i = 0; i < lstride->span; ++i)
    if (lstride[i].kind == LT_INT && lstride[i].nb) { lt__fail("right_inverse: basis-element strides are not supported"); return c; }
  lt_val pre = prefix_products(lshape);
  int idx[LT_CAP];
  int n = sort_by_stride(lstride, 1, idx);
  lt_val one = S1(), zero = S0();
  lt_val rs = Vtup1(root(&one)), rd = Vtup1(root(&zero)), curr = S1();
  for (int k = 0; k < n; ++k) {
    int i = idx[k];
    R is = child(lshape, i), id = child(lstride, i);
    if (is_static_leaf(root(&curr)) && root(&curr)->v == id->v) {
      Tpush(&rs, is);
      Tpush(&rd, child(root(&pre), i));
      curr = A_mul(is, id);
    }
  }
  lt_val r = Vlay(root(&rs), root(&rd));
  return L_coalesce(root(&r));
}

lt_val L_left_inverse(R l)
{
  lt_val c = L_coalesce(l);
  lt_val ws = wrap_(child(root(&c), 0)), wd = wrap_(child(root(&c), 1));
  R lshape = root(&ws), lstride = root(&wd);
  if (!all_static(lstride)) { lt__fail("left_inverse: the strides must be static (CuTe: \"Left inverse requires static strides\")"); return c; }
  for (int i = 0; i < lstride->span; ++i)
    if (lstride[i].kind == LT_INT && lstride[i].nb) { lt__fail("left_inverse: basis-element strides are not supported"); return c; }
  lt_val pre = prefix_products(lshape);
  int idx[LT_CAP];
  int n = sort_by_stride(lstride, 0, idx);
  lt_val zero = S0();
  lt_val rs = Vtup0(), rd = Vtup1(root(&zero));
  for (int k = 0; k < n; ++k) {
    int i = idx[k];
    R id = child(lstride, i);
    if (is_sint(id, 0)) continue;
    lt_val sz = A_product(root(&rs));
    lt_val m = A_mod(id, root(&sz));
    if (!(all_static(root(&m)) && root(&m)->v == 0)) {
      lt__fail("left_inverse: divisibility condition fails (stride %lld)", (long long)id->v);
      return c;
    }
    lt_val q = A_div(id, root(&sz));
    Tpush(&rs, root(&q));
    Tpush(&rd, child(root(&pre), i));
  }
  Tpush(&rs, child(lshape, n > 0 ? idx[n - 1] : 0));
  lt_val r = Vlay(root(&rs), root(&rd));
  return L_coalesce(root(&r));
}

/* ---------------------------------------------------------------------------------------------
 * Divide
 * ------------------------------------------------------------------------------------------- */

static lt_val divide_mode(R l, R t) { return L_logical_divide(l, t); }

lt_val L_logical_divide(R l, R t)
{
  if (is_lay(t)) {
    lt_val cl = L_coalesce(l);
    lt_val comp = L_complement(t, child(root(&cl), 0));
    lt_val both = Vtup2(t, root(&comp));
    lt_val rhs = Vlay_of_modes(&both);
    return L_composition(l, root(&rhs));
  }
  if (is_tup(t)) return transform_layout(l, t, divide_mode, 1, "logical_divide");
  if (is_und(t)) return V(l);
  if (is_basis(t)) { lt__fail("logical_divide: a basis element is not a tiler"); return V(l); }
  lt_val tl = L_make_layout(t);
  return L_logical_divide(l, root(&tl));
}

/* tile_unzip: gather the tile modes and the rest modes into ((tile...),(rest...)) */
static lt_val tile_unzip(R l, R t)
{
  lt_val s = zip2_by_(child(l, 0), t), d = zip2_by_(child(l, 1), t);
  return Vlay(root(&s), root(&d));
}

lt_val L_zipped_divide(R l, R t)
{
  lt_val d = L_logical_divide(l, t);
  return tile_unzip(root(&d), t);
}

/* result(_, repeat<R1>(_)) and result(repeat<R0>(_), repeat<R1>(_)) */
static lt_val unpack_modes(R z, int unpack0)
{
  lt_val u = Vunder();
  int r0 = rank_of(child(child(z, 0), 0)), r1 = rank_of(child(child(z, 0), 1));
  lt_val c0 = unpack0 ? repeat_(r0, root(&u)) : Vunder();
  lt_val c1 = repeat_(r1, root(&u));
  lt_val c = Vtup2(root(&c0), root(&c1));
  return L_slice(root(&c), z);
}

lt_val L_tiled_divide(R l, R t) { lt_val z = L_zipped_divide(l, t); return unpack_modes(root(&z), 0); }
lt_val L_flat_divide(R l, R t)  { lt_val z = L_zipped_divide(l, t); return unpack_modes(root(&z), 1); }

/* ---------------------------------------------------------------------------------------------
 * Product
 * ------------------------------------------------------------------------------------------- */

static lt_val product_mode(R l, R t) { return L_logical_product(l, t); }

lt_val L_logical_product(R block, R t)
{
  if (is_lay(t)) {
    lt_val sz = A_product(child(block, 0)), cs = L_cosize(t);
    lt_val cot = A_mul(root(&sz), root(&cs));
    lt_val comp = L_complement(block, root(&cot));
    lt_val rhs = L_composition(root(&comp), t);
    lt_val both = Vtup2(block, root(&rhs));
    return Vlay_of_modes(&both);
  }
  if (is_tup(t)) return transform_layout(block, t, product_mode, 1, "logical_product");
  if (is_und(t)) return V(block);
  if (is_basis(t)) { lt__fail("logical_product: a basis element is not a tiler"); return V(block); }
  lt_val tl = L_make_layout(t);
  return L_logical_product(block, root(&tl));
}

lt_val L_zipped_product(R l, R t)
{
  lt_val p = L_logical_product(l, t);
  return tile_unzip(root(&p), t);
}

lt_val L_tiled_product(R l, R t) { lt_val z = L_zipped_product(l, t); return unpack_modes(root(&z), 0); }
lt_val L_flat_product(R l, R t)  { lt_val z = L_zipped_product(l, t); return unpack_modes(root(&z), 1); }

/* blocked_product / raked_product: pad both to the same rank R, take the logical product and zip
 * (block, product) or (product, block) mode by mode. */
static lt_val rank_product(R block, R tiler, int raked)
{
  int r = rank_of(block) > rank_of(tiler) ? rank_of(block) : rank_of(tiler);
  lt_val b = L_appendN(block, r), t = L_appendN(tiler, r);
  lt_val p = L_logical_product(root(&b), root(&t));
  R P = root(&p);
  lt_val m0 = Lmode(P, 0), m1 = Lmode(P, 1);
  R x = raked ? root(&m1) : root(&m0), y = raked ? root(&m0) : root(&m1);
  lt_val s = zip2_(child(x, 0), child(y, 0)), d = zip2_(child(x, 1), child(y, 1));
  return Vlay(root(&s), root(&d));
}

lt_val L_blocked_product(R a, R b) { return rank_product(a, b, 0); }
lt_val L_raked_product(R a, R b)   { return rank_product(a, b, 1); }

/* ---------------------------------------------------------------------------------------------
 * Slice, dice, cosize
 * ------------------------------------------------------------------------------------------- */

lt_val L_slice(R c, R l)
{
  lt_val s = slice_(c, child(l, 0)), d = slice_(c, child(l, 1));
  return Vlay(root(&s), root(&d));
}

lt_val L_dice(R c, R l)
{
  lt_val s = dice_(c, child(l, 0)), d = dice_(c, child(l, 1));
  return Vlay(root(&s), root(&d));
}

/* cosize = size(coshape): 1 + sum over leaves of (shape - 1) * |stride|, per codomain mode */
static lt_val map_leaves(R t, lt_val (*f)(R))
{
  if (!is_tup(t)) return f(t);
  lt_val r = Vtup0();
  for (int i = 0; i < t->arity; ++i) { lt_val c = map_leaves(child(t, i), f); Tpush(&r, root(&c)); }
  return r;
}
static lt_val minus1(R x) { lt_val one = S1(); return A_sub(x, root(&one)); }
static lt_val plus1(R x)  { lt_val one = S1(); return A_add(x, root(&one)); }

lt_val L_cosize(R l)
{
  lt_val m1 = map_leaves(child(l, 0), minus1);
  lt_val ad = map_leaves(child(l, 1), A_abs);
  lt_val ip = A_inner_product(root(&m1), root(&ad));
  lt_val co = A_as_arith(root(&ip));
  lt_val cs = map_leaves(root(&co), plus1);
  return A_product(root(&cs));
}
