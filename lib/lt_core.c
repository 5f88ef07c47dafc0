/* lt_core.c -- values: errors, reading and building trees, CuTe's tuple algorithms. */
#include "lt_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------
 * Errors
 * ------------------------------------------------------------------------------------------- */

static _Thread_local int  err_set;
static _Thread_local char err_msg[LT_MSG];

void lt__fail(const char *fmt, ...)
{
  if (err_set) return;
  err_set = 1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err_msg, sizeof err_msg, fmt, ap);
  va_end(ap);
}

int  lt__failed(void) { return err_set; }
void lt__reset(void)  { err_set = 0; err_msg[0] = 0; }

lt_val lt__finish(lt_val v)
{
  if (err_set && !v.err) {
    v.err = 1;
    memcpy(v.msg, err_msg, sizeof v.msg);
  }
  err_set = 0;
  return v;
}

lt_val lt_error_val(const char *fmt, ...)
{
  lt_val v = Vint(0, 0);
  v.err = 1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(v.msg, sizeof v.msg, fmt, ap);
  va_end(ap);
  return v;
}

bool        lt_ok(const lt_val *x)    { return x->err == 0; }
const char *lt_error(const lt_val *x) { return x->err ? x->msg : ""; }

/* ---------------------------------------------------------------------------------------------
 * Reading
 * ------------------------------------------------------------------------------------------- */

int rank_of(R r)
{
  if (is_lay(r)) return rank_of(child(r, 0));
  return is_tup(r) ? r->arity : 1;
}

R child(R r, int i)
{
  if (r->kind == LT_TUPLE || r->kind == LT_LAYOUT) {
    if (i < 0 || i >= r->arity) { lt__fail("mode %d out of range (rank %d)", i, r->arity); return r; }
    R c = r + 1;
    for (int k = 0; k < i; ++k) c += c->span;
    return c;
  }
  if (i != 0) lt__fail("mode %d of a non-tuple", i);
  return r;
}

int all_static(R r)
{
  for (int i = 0; i < r->span; ++i)
    if (r[i].kind == LT_INT && !r[i].st) return 0;
  return 1;
}

int has_under(R r)
{
  for (int i = 0; i < r->span; ++i)
    if (r[i].kind == LT_UNDER) return 1;
  return 0;
}

int tree_eq(R a, R b)
{
  if (a->span != b->span) return 0;
  for (int i = 0; i < a->span; ++i) {
    if (a[i].kind != b[i].kind || a[i].arity != b[i].arity || a[i].span != b[i].span) return 0;
    if (a[i].kind == LT_INT) {
      if (a[i].v != b[i].v || a[i].st != b[i].st || a[i].nb != b[i].nb) return 0;
      if (memcmp(a[i].b, b[i].b, a[i].nb) != 0) return 0;
    }
  }
  return 1;
}

/* ---------------------------------------------------------------------------------------------
 * Building
 * ------------------------------------------------------------------------------------------- */

static void init_empty(lt_val *v) { v->n = 0; v->err = 0; v->msg[0] = 0; }

lt_val V(R r)
{
  lt_val v;
  init_empty(&v);
  memcpy(v.nd, r, sizeof(lt_node) * r->span);
  v.n = r->span;
  return v;
}

static lt_node leaf(uint8_t kind, int64_t x, int st)
{
  lt_node n;
  memset(&n, 0, sizeof n);
  n.kind = kind; n.v = x; n.st = (uint8_t)(st != 0); n.span = 1;
  return n;
}

lt_val Vint(int64_t x, int st) { lt_val v; init_empty(&v); v.nd[0] = leaf(LT_INT, x, st); v.n = 1; return v; }
lt_val Vunder(void)            { lt_val v; init_empty(&v); v.nd[0] = leaf(LT_UNDER, 0, 1); v.n = 1; return v; }

lt_val Vtup0(void)
{
  lt_val v;
  init_empty(&v);
  v.nd[0] = leaf(LT_TUPLE, 0, 0);
  v.n = 1;
  return v;
}

void Tpush(lt_val *t, R x)
{
  if (!(t->nd[0].kind == LT_TUPLE || t->nd[0].kind == LT_LAYOUT)) { lt__fail("internal: push to a non-tuple"); return; }
  if (t->n + x->span > LT_CAP) { lt__fail("capacity exceeded: more than %d nodes in one value", LT_CAP); return; }
  if (t->nd[0].arity == 255) { lt__fail("capacity exceeded: too many modes"); return; }
  memcpy(t->nd + t->n, x, sizeof(lt_node) * x->span);
  t->n += x->span;
  t->nd[0].span = (uint16_t)t->n;
  t->nd[0].arity++;
}

lt_val Vtup1(R a)       { lt_val t = Vtup0(); Tpush(&t, a); return t; }
lt_val Vtup2(R a, R b)  { lt_val t = Vtup0(); Tpush(&t, a); Tpush(&t, b); return t; }

lt_val Vlay(R s, R d)
{
  lt_val t = Vtup0();
  Tpush(&t, s);
  Tpush(&t, d);
  t.nd[0].kind = LT_LAYOUT;
  return t;
}

lt_val Lmode(R l, int i)
{
  return Vlay(child(shape_of(l), i), child(stride_of(l), i));
}

lt_val Vlay_of_modes(const lt_val *modes)
{
  R m = root(modes);
  lt_val s = Vtup0(), d = Vtup0();
  R c = m + 1;
  for (int i = 0; i < m->arity; ++i, c += c->span) {
    if (!is_lay(c)) { lt__fail("internal: make_layout of a non-layout"); break; }
    Tpush(&s, child(c, 0));
    Tpush(&d, child(c, 1));
  }
  return Vlay(root(&s), root(&d));
}

/* ---------------------------------------------------------------------------------------------
 * CuTe's tuple algorithms
 * ------------------------------------------------------------------------------------------- */

lt_val append_(R t, R x)
{
  if (!is_tup(t)) return Vtup2(t, x);
  lt_val r = V(t);
  Tpush(&r, x);
  return r;
}

lt_val prepend_(R t, R x)
{
  if (!is_tup(t)) return Vtup2(x, t);
  lt_val r = Vtup1(x);
  for (int i = 0; i < t->arity; ++i) Tpush(&r, child(t, i));
  return r;
}

/* append<N>(t, x): pad t to rank N with x; a non-tuple stays itself when N == 1. */
lt_val appendN(R t, int n, R x)
{
  if (!is_tup(t)) {
    if (n <= 1) return V(t);
    lt_val r = Vtup1(t);
    for (int i = 1; i < n; ++i) Tpush(&r, x);
    return r;
  }
  if (n < t->arity) { lt__fail("append<%d> to a tuple of rank %d", n, t->arity); return V(t); }
  lt_val r = V(t);
  for (int i = t->arity; i < n; ++i) Tpush(&r, x);
  return r;
}

lt_val replace_front_(R t, R x)
{
  if (!is_tup(t)) return V(x);
  lt_val r = Vtup1(x);
  for (int i = 1; i < t->arity; ++i) Tpush(&r, child(t, i));
  return r;
}

lt_val replace_back_(R t, R x)
{
  if (!is_tup(t)) return V(x);
  lt_val r = Vtup0();
  for (int i = 0; i + 1 < t->arity; ++i) Tpush(&r, child(t, i));
  Tpush(&r, x);
  return r;
}

lt_val remove_(R t, int k)
{
  lt_val r = Vtup0();
  for (int i = 0; i < rank_of(t); ++i)
    if (i != k) Tpush(&r, child(t, i));
  return r;
}

lt_val wrap_(R t)   { return is_tup(t) ? V(t) : Vtup1(t); }

lt_val unwrap_(R t)
{
  while (is_tup(t) && t->arity == 1) t = t + 1;
  return V(t);
}

static void flatten_into(lt_val *out, R t)
{
  if (!is_tup(t)) { Tpush(out, t); return; }
  for (R c = t + 1, e = t + t->span; c < e; c += c->span) flatten_into(out, c);
}

lt_val flatten_(R t)
{
  if (!is_tup(t)) return V(t);
  lt_val r = Vtup0();
  flatten_into(&r, t);
  return r;
}

lt_val repeat_(int n, R x)
{
  if (n == 1) return V(x);
  lt_val r = Vtup0();
  for (int i = 0; i < n; ++i) Tpush(&r, x);
  return r;
}

lt_val repeat_like_(R t, R x)
{
  if (!is_tup(t)) return V(x);
  lt_val r = Vtup0();
  for (int i = 0; i < t->arity; ++i) {
    lt_val c = repeat_like_(child(t, i), x);
    Tpush(&r, root(&c));
  }
  return r;
}

/* zip((t0, t1, ...)): ((t0[0],t1[0],...),(t0[1],t1[1],...),...); a tuple of non-tuples is wrapped. */
lt_val zip_(R t)
{
  if (!is_tup(t)) return V(t);
  if (t->arity == 0 || !is_tup(t + 1)) return Vtup1(t);
  int n = (t + 1)->arity;
  for (int j = 0; j < t->arity; ++j)
    if (!is_tup(child(t, j)) || child(t, j)->arity != n) { lt__fail("zip: mismatched ranks"); return V(t); }
  lt_val r = Vtup0();
  for (int i = 0; i < n; ++i) {
    lt_val m = Vtup0();
    for (int j = 0; j < t->arity; ++j) Tpush(&m, child(child(t, j), i));
    Tpush(&r, root(&m));
  }
  return r;
}

lt_val zip2_(R a, R b)
{
  lt_val t = Vtup2(a, b);
  return zip_(root(&t));
}

/* zip2_by(t, guide): split the rank-2 modes found at the guide's terminals into two modes. */
lt_val zip2_by_(R t, R g)
{
  if (!is_tup(g)) {
    if (!is_tup(t) || t->arity != 2) lt__fail("zip2_by: expected a rank-2 mode at a tiler terminal");
    return V(t);
  }
  if (!is_tup(t) || t->arity < g->arity) { lt__fail("zip2_by: mismatched ranks"); return V(t); }
  lt_val first = Vtup0(), second = Vtup0();
  for (int i = 0; i < g->arity; ++i) {
    lt_val s = zip2_by_(child(t, i), child(g, i));
    if (!is_tup(root(&s)) || root(&s)->arity != 2) { lt__fail("zip2_by: mismatched ranks"); return V(t); }
    Tpush(&first, child(root(&s), 0));
    Tpush(&second, child(root(&s), 1));
  }
  for (int i = g->arity; i < t->arity; ++i) Tpush(&second, child(t, i));
  return Vtup2(root(&first), root(&second));
}

/* slice(c, t): what the underscores of c select; nested selections are spliced into one tuple. */
static void lift_slice(lt_val *out, R c, R t)
{
  if (is_tup(c)) {
    if (!is_tup(t) || t->arity != c->arity) { lt__fail("slice: coordinate and shape have different ranks"); return; }
    for (int i = 0; i < c->arity; ++i) lift_slice(out, child(c, i), child(t, i));
  } else if (is_und(c)) {
    Tpush(out, t);
  }
}

lt_val slice_(R c, R t)
{
  if (is_und(c)) return V(t);
  lt_val r = Vtup0();
  if (is_tup(c)) lift_slice(&r, c, t);
  return r;
}

static void lift_dice(lt_val *out, R c, R t)
{
  if (is_tup(c)) {
    if (!is_tup(t) || t->arity != c->arity) { lt__fail("dice: step and tuple have different ranks"); return; }
    for (int i = 0; i < c->arity; ++i) lift_dice(out, child(c, i), child(t, i));
  } else if (!is_und(c)) {
    Tpush(out, t);
  }
}

lt_val dice_(R c, R t)
{
  if (is_und(c)) return Vtup0();
  if (!is_tup(c)) return V(t);
  lt_val r = Vtup0();
  lift_dice(&r, c, t);
  return r;
}

/* ---------------------------------------------------------------------------------------------
 * Public construction and inspection
 * ------------------------------------------------------------------------------------------- */

lt_val lt_int(int64_t v)     { return Vint(v, 0); }
lt_val lt_static(int64_t v)  { return Vint(v, 1); }
lt_val lt_underscore(void)   { return Vunder(); }

lt_val lt_tuple_of(int n, const lt_val *items)
{
  for (int i = 0; i < n; ++i) if (items[i].err) return items[i];
  lt__reset();
  lt_val t = Vtup0();
  for (int i = 0; i < n; ++i) Tpush(&t, root(&items[i]));
  return lt__finish(t);
}

static int congruent(R a, R b)
{
  if (is_tup(a) != is_tup(b)) return 0;
  if (!is_tup(a)) return 1;
  if (a->arity != b->arity) return 0;
  for (int i = 0; i < a->arity; ++i) if (!congruent(child(a, i), child(b, i))) return 0;
  return 1;
}

static int is_int_tree(R r)
{
  for (int i = 0; i < r->span; ++i)
    if (!(r[i].kind == LT_INT || r[i].kind == LT_TUPLE)) return 0;
  return 1;
}

lt_val lt_make_layout_sd(lt_val s, lt_val d)
{
  LT_GUARD2(s, d);
  if (!is_int_tree(root(&s)) || !is_int_tree(root(&d)))
    return lt_error_val("a layout's shape and stride hold integers only");
  for (int i = 0; i < s.n; ++i)
    if (s.nd[i].kind == LT_INT && s.nd[i].nb) return lt_error_val("a shape cannot hold a basis element");
  if (!congruent(root(&s), root(&d)))
    return lt_error_val("shape %s and stride are not congruent", lt_str(&s));
  return lt__finish(Vlay(root(&s), root(&d)));
}

bool lt_is_layout(const lt_val *x) { return !x->err && is_lay(root(x)); }
bool lt_is_tuple(const lt_val *x)  { return !x->err && is_tup(root(x)); }
bool lt_is_int(const lt_val *x)    { return !x->err && x->nd[0].kind == LT_INT && x->nd[0].nb == 0; }
int64_t lt_value(const lt_val *x)  { return lt_is_int(x) ? x->nd[0].v : 0; }
bool lt_is_static(const lt_val *x) { return !x->err && all_static(root(x)); }

lt_val lt_shape(lt_layout l)  { LT_GUARD1(l); if (!is_lay(root(&l))) return lt_error_val("shape: not a layout"); return V(child(root(&l), 0)); }
lt_val lt_stride(lt_layout l) { LT_GUARD1(l); if (!is_lay(root(&l))) return lt_error_val("stride: not a layout"); return V(child(root(&l), 1)); }

lt_val lt_get(lt_val x, int i)
{
  LT_GUARD1(x);
  R r = root(&x);
  if (i < 0 || i >= rank_of(r)) return lt_error_val("get<%d>: out of range for rank %d", i, rank_of(r));
  return lt__finish(is_lay(r) ? Lmode(r, i) : V(child(r, i)));
}

bool lt_equal(const lt_val *a, const lt_val *b)
{
  if (a->err || b->err) return false;
  return tree_eq(root(a), root(b));
}

/* ---------------------------------------------------------------------------------------------
 * Printing
 * ------------------------------------------------------------------------------------------- */

typedef struct { char *buf; size_t cap, len; } sbuf;

static void put(sbuf *s, const char *txt)
{
  size_t n = strlen(txt);
  if (s->len + 1 < s->cap) {
    size_t room = s->cap - 1 - s->len;
    memcpy(s->buf + s->len, txt, n < room ? n : room);
    s->buf[s->len + (n < room ? n : room)] = 0;
  }
  s->len += n;
}

static void print_rec(sbuf *s, R r)
{
  char tmp[64];
  switch (r->kind) {
  case LT_UNDER: put(s, "_"); break;
  case LT_INT:
    snprintf(tmp, sizeof tmp, r->st ? "_%lld" : "%lld", (long long)r->v);
    put(s, tmp);
    for (int k = r->nb - 1; k >= 0; --k) { snprintf(tmp, sizeof tmp, "@%d", r->b[k]); put(s, tmp); }
    break;
  case LT_LAYOUT:
    print_rec(s, child(r, 0)); put(s, ":"); print_rec(s, child(r, 1));
    break;
  default:
    put(s, "(");
    for (int i = 0; i < r->arity; ++i) { if (i) put(s, ","); print_rec(s, child(r, i)); }
    put(s, ")");
  }
}

size_t lt_print(const lt_val *x, char *buf, size_t cap)
{
  sbuf s = { buf, cap, 0 };
  if (cap) buf[0] = 0;
  if (x->err) { put(&s, "error: "); put(&s, x->msg); return s.len; }
  print_rec(&s, root(x));
  return s.len;
}

const char *lt_str(const lt_val *x)
{
  static _Thread_local char buf[8][2048];
  static _Thread_local unsigned next;
  char *b = buf[next++ % 8];
  lt_print(x, b, sizeof buf[0]);
  return b;
}

/* ---------------------------------------------------------------------------------------------
 * Parsing:  value := elem [':' elem] ;  elem := '(' [value {',' value}] ')' | int | '_' | 'X'
 *           int := ['_'] ['-'] digits {'@' digits}
 * ------------------------------------------------------------------------------------------- */

typedef struct { const char *p, *start; int depth; } parser;

static void skip_ws(parser *ps) { while (*ps->p == ' ' || *ps->p == '\t') ps->p++; }

static int perr(parser *ps, const char *what)
{
  lt__fail("%s", what);
  return (int)(ps->p - ps->start) + 1;
}

static int parse_value(parser *ps, lt_val *out);

static int parse_int(parser *ps, lt_val *out)
{
  int st = 0, neg = 0;
  if (*ps->p == '_') { st = 1; ps->p++; }
  if (*ps->p == '-') { neg = 1; ps->p++; }
  if (!(*ps->p >= '0' && *ps->p <= '9')) return perr(ps, "expected an integer");
  int64_t v = 0;
  while (*ps->p >= '0' && *ps->p <= '9') {
    int dgt = *ps->p - '0';
    if (v > (INT64_MAX - dgt) / 10) return perr(ps, "integer too large");
    v = v * 10 + dgt;
    ps->p++;
  }
  *out = Vint(neg ? -v : v, st);
  uint8_t printed[LT_MAX_BASIS];
  int nb = 0;
  while (*ps->p == '@') {
    ps->p++;
    if (!(*ps->p >= '0' && *ps->p <= '9')) return perr(ps, "expected a basis index after '@'");
    int k = 0;
    while (*ps->p >= '0' && *ps->p <= '9') {
      k = k * 10 + (*ps->p - '0');
      if (k > 200) return perr(ps, "basis index too large");
      ps->p++;
    }
    if (nb == LT_MAX_BASIS) return perr(ps, "basis element too deep");
    printed[nb++] = (uint8_t)k;
  }
  out->nd[0].nb = (uint8_t)nb;
  for (int i = 0; i < nb; ++i) out->nd[0].b[i] = printed[nb - 1 - i];  /* printed innermost first */
  return 0;
}

static int parse_elem(parser *ps, lt_val *out)
{
  skip_ws(ps);
  char c = *ps->p;
  if (c == '(') {
    if (++ps->depth > 32) return perr(ps, "nesting too deep");
    ps->p++;
    *out = Vtup0();
    skip_ws(ps);
    if (*ps->p == ')') { ps->p++; ps->depth--; return 0; }
    for (;;) {
      lt_val item;
      int e = parse_value(ps, &item);
      if (e) return e;
      Tpush(out, root(&item));
      if (lt__failed()) return perr(ps, "too many modes");
      skip_ws(ps);
      if (*ps->p == ',') { ps->p++; continue; }
      if (*ps->p == ')') { ps->p++; break; }
      return perr(ps, *ps->p ? "expected ',' or ')'" : "unbalanced parentheses: missing ')'");
    }
    ps->depth--;
    return 0;
  }
  if (c == '_' && !((ps->p[1] >= '0' && ps->p[1] <= '9') || ps->p[1] == '-')) { ps->p++; *out = Vunder(); return 0; }
  if (c == 'X' && !((ps->p[1] >= 'a' && ps->p[1] <= 'z') || (ps->p[1] >= 'A' && ps->p[1] <= 'Z') || ps->p[1] == '_')) {
    ps->p++; *out = Vunder(); return 0;
  }
  if (c == '_' || c == '-' || (c >= '0' && c <= '9')) return parse_int(ps, out);
  if (c == 0) return perr(ps, "unexpected end of input");
  if (c == ')') return perr(ps, "unbalanced parentheses: unexpected ')'");
  return perr(ps, "unexpected character");
}

static int parse_value(parser *ps, lt_val *out)
{
  int e = parse_elem(ps, out);
  if (e) return e;
  skip_ws(ps);
  if (*ps->p == ':') {
    const char *colon = ps->p;
    ps->p++;
    lt_val d;
    e = parse_elem(ps, &d);
    if (e) return e;
    lt_val l = lt_make_layout_sd(*out, d);
    if (l.err) { ps->p = colon; return perr(ps, l.msg); }
    *out = l;
  }
  return 0;
}

/* lt_parse_at: see layout.h (the calculator parses values inside calls with it). */
int lt_parse_at(const char *start, const char **pp, lt_val *out)
{
  parser ps = { *pp, start, 0 };
  lt__reset();
  int e = parse_value(&ps, out);
  if (!e && lt__failed()) e = (int)(ps.p - start) + 1;
  if (e) *out = lt__finish(Vint(0, 0));
  *pp = ps.p;
  return e;
}

lt_val lt_parse(const char *text, int *errcol)
{
  const char *p = text;
  lt_val v;
  int e = lt_parse_at(text, &p, &v);
  if (!e) {
    while (*p == ' ' || *p == '\t') p++;
    if (*p) { lt__reset(); lt__fail("unexpected text after the value"); v = lt__finish(Vint(0, 0)); e = (int)(p - text) + 1; }
  }
  if (errcol) *errcol = e;
  return v;
}
