/* lt_arith.c -- integer arithmetic with CuTe's static rules.
 *
 * In CuTe an integer is either static (Int<N>, known to the compiler) or dynamic (an int).  An
 * operation on two statics is static; anything that touches a dynamic value is dynamic -- except a
 * few rules CuTe spells out (integral_constant.hpp), which decide the printed `_` marks:
 *
 *   _0 * x -> _0      x * _0 -> _0      _0 / x -> _0      x % _1 -> _0      _0 % x -> _0
 *
 * Strides may also be basis elements (CuTe's ScaledBasis, printed _1@0): int * E<i> is E<i> scaled,
 * _0 + E<i> is E<i>, and E<i> + E<j> is an arithmetic tuple (a coordinate), added element-wise.
 */
#include "lt_internal.h"

#include <string.h>

/* ---------------------------------------------------------------------------------------------
 * Scalars
 * ------------------------------------------------------------------------------------------- */

typedef struct { int64_t v; int st; int nb; uint8_t b[LT_MAX_BASIS]; } S;

static S sc(R r)
{
  S s;
  memset(&s, 0, sizeof s);
  if (r->kind == LT_UNDER) { s.st = 1; return s; }         /* `_` is CuTe's Int<0> */
  if (r->kind != LT_INT) { lt__fail("expected an integer, found a tuple"); return s; }
  s.v = r->v; s.st = r->st; s.nb = r->nb;
  memcpy(s.b, r->b, sizeof s.b);
  return s;
}

static lt_val VS(S s)
{
  lt_val v = Vint(s.v, s.st);
  v.nd[0].nb = (uint8_t)s.nb;
  memcpy(v.nd[0].b, s.b, sizeof s.b);
  return v;
}

static S mk(int64_t v, int st) { S s; memset(&s, 0, sizeof s); s.v = v; s.st = st; return s; }

static int64_t chk_add(int64_t a, int64_t b)
{
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) { lt__fail("64-bit integer overflow in %lld + %lld", (long long)a, (long long)b); return 0; }
  return r;
}
static int64_t chk_sub(int64_t a, int64_t b)
{
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) { lt__fail("64-bit integer overflow in %lld - %lld", (long long)a, (long long)b); return 0; }
  return r;
}
static int64_t chk_mul(int64_t a, int64_t b)
{
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) { lt__fail("64-bit integer overflow in %lld * %lld", (long long)a, (long long)b); return 0; }
  return r;
}

static int szero(S a) { return a.st && a.nb == 0 && a.v == 0; }

static S s_mul(S a, S b)
{
  if (a.nb && b.nb) { lt__fail("cannot multiply two basis elements"); return mk(0, 0); }
  S r = a.nb ? a : b;                                   /* keep the basis of either side */
  r.v  = chk_mul(a.v, b.v);
  r.st = (a.st && b.st) || szero(a) || szero(b);
  return r;
}

static S s_div(S a, S b)
{
  if (a.nb || b.nb) { lt__fail("cannot divide a basis element"); return mk(0, 0); }
  if (b.v == 0) { lt__fail("division by zero"); return mk(0, 0); }
  if (a.v == INT64_MIN && b.v == -1) { lt__fail("64-bit integer overflow in division"); return mk(0, 0); }
  return mk(a.v / b.v, (a.st && b.st) || szero(a));
}

static S s_mod(S a, S b)
{
  if (a.nb || b.nb) { lt__fail("cannot take a basis element modulo"); return mk(0, 0); }
  if (b.v == 0) { lt__fail("modulo by zero"); return mk(0, 0); }
  if (b.v == -1) return mk(0, 1);
  return mk(a.v % b.v, (a.st && b.st) || (b.st && b.v == 1) || szero(a));
}

static S s_addsub(S a, S b, int sub)
{
  if (a.nb || b.nb) { lt__fail("internal: scalar add of basis elements"); return mk(0, 0); }
  return mk(sub ? chk_sub(a.v, b.v) : chk_add(a.v, b.v), a.st && b.st);
}

static S s_int_only(S a, const char *what)
{
  if (a.nb) lt__fail("%s of a basis element", what);
  return a;
}

/* ---------------------------------------------------------------------------------------------
 * Arithmetic on values: scalars, basis elements and arithmetic tuples
 * ------------------------------------------------------------------------------------------- */

lt_val A_as_arith(R t)
{
  if (is_tup(t)) {
    lt_val r = Vtup0();
    for (int i = 0; i < t->arity; ++i) { lt_val c = A_as_arith(child(t, i)); Tpush(&r, root(&c)); }
    return r;
  }
  if (!is_basis(t)) return V(t);
  /* E<n0,n1,...>(v) -> (_0 x n0, as_arith(E<n1,...>(v))) */
  lt_val inner = V(t);
  inner.nd[0].nb = (uint8_t)(t->nb - 1);
  memmove(inner.nd[0].b, t->b + 1, LT_MAX_BASIS - 1);
  lt_val in = A_as_arith(root(&inner));
  lt_val r = Vtup0(), z = Vint(0, 1);
  for (int i = 0; i < t->b[0]; ++i) Tpush(&r, root(&z));
  Tpush(&r, root(&in));
  return r;
}

static lt_val add_tuples(R a, R b, int sub)
{
  int n = rank_of(a) > rank_of(b) ? rank_of(a) : rank_of(b);
  lt_val z = Vint(0, 1);
  lt_val pa = appendN(a, n, root(&z)), pb = appendN(b, n, root(&z));
  lt_val r = Vtup0();
  for (int i = 0; i < n; ++i) {
    lt_val c = sub ? A_sub(child(root(&pa), i), child(root(&pb), i)) : A_add(child(root(&pa), i), child(root(&pb), i));
    Tpush(&r, root(&c));
  }
  return r;
}

static lt_val negate(R a)
{
  lt_val r = V(a);
  for (int i = 0; i < r.n; ++i)
    if (r.nd[i].kind == LT_INT) {
      if (r.nd[i].v == INT64_MIN) { lt__fail("64-bit integer overflow in negation"); return r; }
      r.nd[i].v = -r.nd[i].v;
    }
  return r;
}

static lt_val addsub(R a, R b, int sub)
{
  if (is_lay(a) || is_lay(b)) { lt__fail("cannot add layouts"); return Vint(0, 0); }
  int ta = is_tup(a), tb = is_tup(b), ba = is_basis(a), bb = is_basis(b);
  if (!ta && !tb && !ba && !bb) { S r = s_addsub(sc(a), sc(b), sub); return VS(r); }
  if (ta && tb) return add_tuples(a, b, sub);
  /* _0 on either side is the identity (CuTe's C<0> + tuple, C<0> + E<i>) */
  if (!ta && !ba) {
    if (!is_sint(a, 0)) { lt__fail("cannot add the integer %lld to a coordinate", (long long)a->v); return V(b); }
    return sub ? negate(b) : V(b);
  }
  if (!tb && !bb) {
    if (!is_sint(b, 0)) { lt__fail("cannot add the integer %lld to a coordinate", (long long)b->v); return V(a); }
    return V(a);
  }
  lt_val xa = A_as_arith(a), xb = A_as_arith(b);
  if (!is_tup(root(&xa)) || !is_tup(root(&xb))) { lt__fail("cannot add these values"); return V(a); }
  return add_tuples(root(&xa), root(&xb), sub);
}

lt_val A_add(R a, R b) { return addsub(a, b, 0); }
lt_val A_sub(R a, R b) { return addsub(a, b, 1); }

lt_val A_mul(R a, R b) { return VS(s_mul(sc(a), sc(b))); }
lt_val A_div(R a, R b) { return VS(s_div(sc(a), sc(b))); }
lt_val A_mod(R a, R b) { return VS(s_mod(sc(a), sc(b))); }

lt_val A_min(R a, R b)
{
  S x = s_int_only(sc(a), "min"), y = s_int_only(sc(b), "min");
  return VS(mk(x.v < y.v ? x.v : y.v, x.st && y.st));
}

lt_val A_abs(R a)
{
  S x = sc(a);
  if (x.v == INT64_MIN) { lt__fail("64-bit integer overflow in abs"); x.v = 0; }
  if (x.v < 0) x.v = -x.v;
  return VS(x);
}

lt_val A_signum(R a)
{
  S x = s_int_only(sc(a), "signum");
  return VS(mk((x.v > 0) - (x.v < 0), x.st));
}

/* is_constant<true, a == b>: both static and equal (a basis element equals only the same basis). */
int A_eq_true(R a, R b)
{
  if (is_tup(a) || is_tup(b)) return 0;
  S x = sc(a), y = sc(b);
  if (!x.st || !y.st || x.nb != y.nb || x.v != y.v) return 0;
  return memcmp(x.b, y.b, (size_t)x.nb) == 0;
}

/* ceil_div(a, b) on int tuples (int_tuple.hpp): tuple/tuple by mode (missing modes of b are 1),
 * tuple/int folds b across a's modes, int/tuple divides by product(b), int/int is (a+b-1)/b. */
lt_val A_ceil_div(R a, R b)
{
  if (is_tup(a)) {
    if (is_tup(b)) {
      if (b->arity > a->arity) { lt__fail("ceil_div: mismatched ranks"); return V(a); }
      lt_val r = Vtup0(), one = Vint(1, 1);
      for (int i = 0; i < a->arity; ++i) {
        R bi = i < b->arity ? child(b, i) : root(&one);
        lt_val c = A_ceil_div(child(a, i), bi);
        Tpush(&r, root(&c));
      }
      return r;
    }
    lt_val r = Vtup0(), rest = V(b);
    for (int i = 0; i < a->arity; ++i) {
      lt_val c = A_ceil_div(child(a, i), root(&rest));
      lt_val nr = A_ceil_div(root(&rest), child(a, i));
      Tpush(&r, root(&c));
      rest = nr;
    }
    return r;
  }
  if (is_tup(b)) { lt_val p = A_product(b); return A_ceil_div(a, root(&p)); }
  S x = s_int_only(sc(a), "ceil_div"), y = s_int_only(sc(b), "ceil_div");
  S one = mk(1, 1);
  return VS(s_div(s_addsub(s_addsub(x, y, 0), one, 1), y));
}

/* product: a left fold of `*` over the modes' products; () is _1. */
lt_val A_product(R t)
{
  if (is_lay(t)) return A_product(child(t, 0));
  if (!is_tup(t)) return V(t);
  if (t->arity == 0) return Vint(1, 1);
  lt_val acc = A_product(child(t, 0));
  for (int i = 1; i < t->arity; ++i) {
    lt_val p = A_product(child(t, i));
    acc = A_mul(root(&acc), root(&p));
  }
  return acc;
}

/* sum: _0 + s0 + s1 + ... (left fold from a static zero) */
lt_val A_sum(R t)
{
  if (!is_tup(t)) return V(t);
  lt_val acc = Vint(0, 1);
  for (int i = 0; i < t->arity; ++i) {
    lt_val s = A_sum(child(t, i));
    acc = A_add(root(&acc), root(&s));
  }
  return acc;
}

lt_val A_inner_product(R a, R b)
{
  if (is_tup(a) && is_tup(b)) {
    if (a->arity != b->arity) { lt__fail("inner_product: mismatched ranks"); return Vint(0, 0); }
    lt_val acc = Vint(0, 1);
    for (int i = 0; i < a->arity; ++i) {
      lt_val p = A_inner_product(child(a, i), child(b, i));
      acc = A_add(root(&acc), root(&p));
    }
    return acc;
  }
  if (is_tup(a) || is_tup(b)) { lt__fail("inner_product: mismatched profiles"); return Vint(0, 0); }
  return A_mul(a, b);
}

/* compact_major<LayoutLeft>(shape, current): column-major strides; a static-1 mode gets _0. */
static lt_val compact_rec(R s, lt_val *cur, int right)
{
  if (is_tup(s)) {
    lt_val r = Vtup0();
    if (!right) {
      for (int i = 0; i < s->arity; ++i) { lt_val c = compact_rec(child(s, i), cur, right); Tpush(&r, root(&c)); }
    } else {
      /* LayoutRight folds from the last mode and prepends */
      for (int i = s->arity - 1; i >= 0; --i) {
        lt_val c = compact_rec(child(s, i), cur, right);
        r = prepend_(root(&r), root(&c));
      }
    }
    return r;
  }
  if (is_sint(s, 1)) return Vint(0, 1);
  lt_val d = *cur;
  *cur = A_mul(root(cur), s);
  return d;
}

lt_val A_compact_left(R shape, R current)  { lt_val cur = V(current); return compact_rec(shape, &cur, 0); }
lt_val A_compact_right(R shape, R current) { lt_val cur = V(current); return compact_rec(shape, &cur, 1); }

/* crd2idx(coord, shape, stride): integer coordinates are split colexicographically over the modes. */
static lt_val crd2idx_itt(R c, R s, R d, int first)
{
  int n = s->arity;
  if (first == n - 1) return A_crd2idx(c, child(s, first), child(d, first));
  if (is_sint(c, 0)) {
    lt_val z = Vint(0, 1);
    lt_val acc = A_crd2idx(root(&z), child(s, first), child(d, first));
    lt_val rest = Vint(0, 1);
    for (int i = first + 1; i < n; ++i) {
      lt_val t = A_crd2idx(root(&z), child(s, i), child(d, i));
      rest = A_add(root(&rest), root(&t));
    }
    return A_add(root(&acc), root(&rest));
  }
  lt_val p = A_product(child(s, first));
  lt_val dv = A_div(c, root(&p)), md = A_mod(c, root(&p));
  lt_val a = A_crd2idx(root(&md), child(s, first), child(d, first));
  lt_val b = crd2idx_itt(root(&dv), s, d, first + 1);
  return A_add(root(&a), root(&b));
}

lt_val A_crd2idx(R c, R s, R d)
{
  int ranks_ok = is_tup(c) ? is_tup(s) && is_tup(d) && c->arity == s->arity && s->arity == d->arity
               : is_tup(s) ? is_tup(d) && s->arity == d->arity
               : !is_tup(d);
  if (!ranks_ok) { lt__fail("crd2idx: coordinate and shape have different ranks"); return Vint(0, 0); }
  if (is_tup(c)) {
    if (c->arity == 0) return Vint(0, 1);
    lt_val acc = A_crd2idx(child(c, 0), child(s, 0), child(d, 0));
    for (int i = 1; i < c->arity; ++i) {
      lt_val t = A_crd2idx(child(c, i), child(s, i), child(d, i));
      acc = A_add(root(&acc), root(&t));
    }
    return acc;
  }
  if (is_tup(s)) {
    if (s->arity == 0) { lt__fail("crd2idx: empty shape"); return Vint(0, 0); }
    return crd2idx_itt(c, s, d, 0);
  }
  return A_mul(c, d);
}

/* crd2idx(coord, shape): colexicographic index without strides (Horner's rule over the flattened
 * coordinate and product_like(shape, coord), the product of the shape at each coordinate leaf). */
static void product_like(lt_val *out, R c, R s)
{
  if (is_tup(c)) {
    if (!is_tup(s) || s->arity != c->arity) { lt__fail("crd2idx: coordinate and shape have different ranks"); return; }
    for (int i = 0; i < c->arity; ++i) product_like(out, child(c, i), child(s, i));
  } else {
    lt_val p = A_product(s);
    Tpush(out, root(&p));
  }
}

lt_val A_crd2idx_colex(R c, R s)
{
  if (!is_tup(c)) return V(c);
  lt_val fc = flatten_(c), fs = Vtup0();
  product_like(&fs, c, s);
  R C = root(&fc), Sh = root(&fs);
  int n = C->arity;
  if (n == 0 || Sh->arity != n) { if (n) lt__fail("crd2idx: coordinate and shape are not congruent"); return Vint(0, 1); }
  lt_val acc = V(child(C, n - 1));
  for (int i = n - 2; i >= 0; --i) {
    lt_val m = A_mul(child(Sh, i), root(&acc));
    acc = A_add(child(C, i), root(&m));
  }
  return acc;
}

lt_val A_basis_like(R shape, int nb, const uint8_t *path)
{
  if (is_tup(shape)) {
    if (nb >= LT_MAX_BASIS) { lt__fail("identity layout nested too deeply"); return Vint(1, 1); }
    uint8_t p[LT_MAX_BASIS] = { 0 };
    if (nb) memcpy(p, path, (size_t)nb);
    lt_val r = Vtup0();
    for (int i = 0; i < shape->arity; ++i) {
      p[nb] = (uint8_t)i;
      lt_val c = A_basis_like(child(shape, i), nb + 1, p);
      Tpush(&r, root(&c));
    }
    return r;
  }
  lt_val e = Vint(1, 1);
  e.nd[0].nb = (uint8_t)nb;
  if (nb) memcpy(e.nd[0].b, path, (size_t)nb);
  return e;
}

/* transform_leaf(as_arithmetic_tuple(x), identity): an arithmetic result as a plain coordinate. */
lt_val A_idx2crd(R i, R s)
{
  if (is_tup(i)) {
    if (!is_tup(s) || s->arity != i->arity) { lt__fail("idx2crd: index and shape have different ranks"); return Vint(0, 0); }
    lt_val r = Vtup0();
    for (int k = 0; k < i->arity; ++k) { lt_val c = A_idx2crd(child(i, k), child(s, k)); Tpush(&r, root(&c)); }
    return r;
  }
  if (!is_tup(s)) return V(i);
  lt_val basis = A_basis_like(s, 0, NULL);
  lt_val x = A_crd2idx(i, s, root(&basis));
  return A_as_arith(root(&x));
}

/* idx2crd(i, shape, stride): ((i / d) % s) at each leaf; `_1` leaves give _0. */
lt_val A_idx2crd3(R i, R s, R d)
{
  if (is_tup(i)) {
    if (!is_tup(s) || !is_tup(d) || s->arity != i->arity || d->arity != i->arity) { lt__fail("idx2crd: mismatched ranks"); return Vint(0, 0); }
    lt_val r = Vtup0();
    for (int k = 0; k < i->arity; ++k) { lt_val c = A_idx2crd3(child(i, k), child(s, k), child(d, k)); Tpush(&r, root(&c)); }
    return r;
  }
  if (is_tup(s)) {
    lt_val dd;
    if (is_tup(d)) {
      if (d->arity != s->arity) { lt__fail("idx2crd: mismatched ranks"); return Vint(0, 0); }
      dd = V(d);
    } else {
      dd = A_compact_left(s, d);
    }
    lt_val r = Vtup0();
    for (int k = 0; k < s->arity; ++k) { lt_val c = A_idx2crd3(i, child(s, k), child(root(&dd), k)); Tpush(&r, root(&c)); }
    return r;
  }
  if (is_sint(s, 1)) return Vint(0, 1);
  lt_val q = A_div(i, d);
  return A_mod(root(&q), s);
}

/* coalesce(Shape): multiply neighbours that are both static or both dynamic. */
lt_val A_coalesce_shape(R s)
{
  lt_val f = flatten_(s);
  R F = root(&f);
  if (!is_tup(F)) return f;
  if (F->arity == 0) return f;
  lt_val init = V(child(F, 0));
  for (int i = 1; i < F->arity; ++i) {
    R a = child(F, i);
    R back = is_tup(root(&init)) ? child(root(&init), root(&init)->arity - 1) : root(&init);
    if (all_static(back) == all_static(a)) {
      lt_val m = A_mul(back, a);
      init = replace_back_(root(&init), root(&m));
    } else {
      init = append_(root(&init), a);
    }
  }
  return init;
}

/* coprofile(L): _0s shaped like L's codomain (a coordinate for identity layouts). */
lt_val A_coprofile(R l)
{
  lt_val s = A_sum(stride_of(l));
  lt_val a = A_as_arith(root(&s));
  lt_val z = Vint(0, 1);
  return repeat_like_(root(&a), root(&z));
}

lt_val A_basis_get(R e, R t)
{
  if (!is_basis(e)) return V(t);
  R cur = t;
  for (int k = 0; k < e->nb; ++k) {
    if (!is_tup(cur) && e->b[k] == 0) continue;        /* get<0> of a non-tuple is itself */
    if (!is_tup(cur) || e->b[k] >= cur->arity) { lt__fail("basis stride @%d does not address a mode", e->b[k]); return V(t); }
    cur = child(cur, e->b[k]);
  }
  return V(cur);
}

lt_val A_basis_value(R e)
{
  lt_val v = V(e);
  if (v.nd[0].kind == LT_INT) v.nd[0].nb = 0;
  return v;
}
