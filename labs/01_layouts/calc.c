/* calc.c -- evaluate calculator expressions with the layout library.
 *
 *   expr := call | value          call := name '(' [expr {',' expr}] ')'
 *
 * A value is anything in CuTe's notation (lt_parse).  An argument that is itself a call passes on
 * its result; a view passes on its layout.
 */
#include "calc.h"

#include <stdio.h>
#include <string.h>


#define MAX_ARGS 6

typedef struct { lt_val v; lt_val off; int is_view; int col; } arg;

typedef void (*op_fn)(arg *a, calc_result *r);

static void set_value(calc_result *r, lt_val v)  { r->is_view = 0; r->value = v; }
static void set_view(calc_result *r, lt_view v)  { r->is_view = 1; r->value = v.layout; r->offset = v.offset; }

/* ---- the operations, named and ordered as in the test vectors -------------------------------- */

static void op_size(arg *a, calc_result *r)     { set_value(r, lt_size(a[0].v)); }
static void op_cosize(arg *a, calc_result *r)   { set_value(r, lt_cosize(a[0].v)); }
static void op_rank(arg *a, calc_result *r)     { set_value(r, lt_rank(a[0].v)); }
static void op_depth(arg *a, calc_result *r)    { set_value(r, lt_depth(a[0].v)); }
static void op_crd2idx(arg *a, calc_result *r)  { set_value(r, lt_crd2idx(a[0].v, a[1].v)); }
static void op_idx2crd(arg *a, calc_result *r)  { set_value(r, lt_idx2crd(a[0].v, a[1].v)); }
static void op_make_layout(arg *a, calc_result *r)       { set_value(r, lt_make_layout(a[0].v)); }
static void op_make_layout_right(arg *a, calc_result *r) { set_value(r, lt_make_layout_right(a[0].v)); }
static void op_coalesce(arg *a, calc_result *r)          { set_value(r, lt_coalesce(a[0].v)); }
static void op_coalesce_profile(arg *a, calc_result *r)  { set_value(r, lt_coalesce_profile(a[0].v, a[1].v)); }
static void op_filter(arg *a, calc_result *r)            { set_value(r, lt_filter(a[0].v)); }
static void op_flatten(arg *a, calc_result *r)           { set_value(r, lt_flatten(a[0].v)); }
static void op_right_inverse(arg *a, calc_result *r)     { set_value(r, lt_right_inverse(a[0].v)); }
static void op_left_inverse(arg *a, calc_result *r)      { set_value(r, lt_left_inverse(a[0].v)); }
static void op_complement1(arg *a, calc_result *r)       { set_value(r, lt_complement1(a[0].v)); }
static void op_complement(arg *a, calc_result *r)        { set_value(r, lt_complement(a[0].v, a[1].v)); }
static void op_composition_tiler(arg *a, calc_result *r) { set_value(r, lt_composition_tiler(a[0].v, a[1].v)); }
static void op_composition(arg *a, calc_result *r)
{
  set_value(r, lt_is_layout(&a[1].v) ? lt_composition(a[0].v, a[1].v) : lt_composition_tiler(a[0].v, a[1].v));
}
static void op_logical_divide(arg *a, calc_result *r)    { set_value(r, lt_logical_divide(a[0].v, a[1].v)); }
static void op_zipped_divide(arg *a, calc_result *r)     { set_value(r, lt_zipped_divide(a[0].v, a[1].v)); }
static void op_tiled_divide(arg *a, calc_result *r)      { set_value(r, lt_tiled_divide(a[0].v, a[1].v)); }
static void op_flat_divide(arg *a, calc_result *r)       { set_value(r, lt_flat_divide(a[0].v, a[1].v)); }
static void op_logical_product(arg *a, calc_result *r)   { set_value(r, lt_logical_product(a[0].v, a[1].v)); }
static void op_zipped_product(arg *a, calc_result *r)    { set_value(r, lt_zipped_product(a[0].v, a[1].v)); }
static void op_tiled_product(arg *a, calc_result *r)     { set_value(r, lt_tiled_product(a[0].v, a[1].v)); }
static void op_flat_product(arg *a, calc_result *r)      { set_value(r, lt_flat_product(a[0].v, a[1].v)); }
static void op_blocked_product(arg *a, calc_result *r)   { set_value(r, lt_blocked_product(a[0].v, a[1].v)); }
static void op_raked_product(arg *a, calc_result *r)     { set_value(r, lt_raked_product(a[0].v, a[1].v)); }
static void op_identity_layout(arg *a, calc_result *r)   { set_value(r, lt_identity_layout(a[0].v)); }

static lt_view tensor_of(arg *a) { return lt_tensor(a->v); }

static void op_local_tile(arg *a, calc_result *r)
{
  lt_view t = tensor_of(&a[0]);
  set_view(r, lt_local_tile(&t, a[1].v, a[2].v));
}
static void op_local_tile_proj(arg *a, calc_result *r)
{
  lt_view t = tensor_of(&a[0]);
  set_view(r, lt_local_tile_proj(&t, a[1].v, a[2].v, a[3].v));
}
static void op_local_partition(arg *a, calc_result *r)
{
  lt_view t = tensor_of(&a[0]);
  set_view(r, lt_local_partition(&t, a[1].v, a[2].v));
}
static void op_local_partition_proj(arg *a, calc_result *r)
{
  lt_view t = tensor_of(&a[0]);
  set_view(r, lt_local_partition_proj(&t, a[1].v, a[2].v, a[3].v));
}
static void op_inner_partition(arg *a, calc_result *r)
{
  lt_view t = tensor_of(&a[0]);
  set_view(r, lt_inner_partition(&t, a[1].v, a[2].v));
}
static void op_outer_partition(arg *a, calc_result *r)
{
  lt_view t = tensor_of(&a[0]);
  set_view(r, lt_outer_partition(&t, a[1].v, a[2].v));
}
static void op_slice(arg *a, calc_result *r)          { set_view(r, lt_slice_and_offset(a[1].v, a[0].v)); }
static void op_identity_tensor(arg *a, calc_result *r) { set_view(r, lt_identity_tensor(a[0].v)); }
static void op_identity_eval(arg *a, calc_result *r)
{
  lt_view t = lt_identity_tensor(a[0].v);
  set_value(r, lt_view_eval(&t, a[1].v));
}
static void op_swizzle(arg *a, calc_result *r) { set_value(r, lt_swizzle(a[0].v, a[1].v, a[2].v, a[3].v)); }
static void op_identity_local_tile(arg *a, calc_result *r)
{
  lt_view t = lt_identity_tensor(a[0].v);
  set_view(r, lt_local_tile(&t, a[1].v, a[2].v));
}
static void op_identity_local_tile_proj(arg *a, calc_result *r)
{
  lt_view t = lt_identity_tensor(a[0].v);
  set_view(r, lt_local_tile_proj(&t, a[1].v, a[2].v, a[3].v));
}
static void op_identity_local_partition(arg *a, calc_result *r)
{
  lt_view t = lt_identity_tensor(a[0].v);
  set_view(r, lt_local_partition(&t, a[1].v, a[2].v));
}

typedef struct { const char *name; int min, max; op_fn fn; const char *args; } op_def;

static const op_def ops[] = {
  { "size",            1, 1, op_size,            "L" },
  { "cosize",          1, 1, op_cosize,          "L" },
  { "rank",            1, 1, op_rank,            "L" },
  { "depth",           1, 1, op_depth,           "L" },
  { "crd2idx",         2, 2, op_crd2idx,         "L, coord" },
  { "idx2crd",         2, 2, op_idx2crd,         "S, index" },
  { "make_layout",     1, 1, op_make_layout,     "S" },
  { "make_layout_right", 1, 1, op_make_layout_right, "S" },
  { "coalesce",        1, 2, NULL,               "L [, profile]" },
  { "coalesce_profile", 2, 2, op_coalesce_profile, "L, profile" },
  { "filter",          1, 1, op_filter,          "L" },
  { "flatten",         1, 1, op_flatten,         "L" },
  { "composition",     2, 2, op_composition,     "A, B (a layout or a tiler)" },
  { "composition_tiler", 2, 2, op_composition_tiler, "A, tiler" },
  { "complement",      1, 2, NULL,               "L [, cotarget]" },
  { "complement1",     1, 1, op_complement1,     "L" },
  { "right_inverse",   1, 1, op_right_inverse,   "L" },
  { "left_inverse",    1, 1, op_left_inverse,    "L" },
  { "logical_divide",  2, 2, op_logical_divide,  "A, tiler" },
  { "zipped_divide",   2, 2, op_zipped_divide,   "A, tiler" },
  { "tiled_divide",    2, 2, op_tiled_divide,    "A, tiler" },
  { "flat_divide",     2, 2, op_flat_divide,     "A, tiler" },
  { "logical_product", 2, 2, op_logical_product, "A, B" },
  { "zipped_product",  2, 2, op_zipped_product,  "A, B" },
  { "tiled_product",   2, 2, op_tiled_product,   "A, B" },
  { "flat_product",    2, 2, op_flat_product,    "A, B" },
  { "blocked_product", 2, 2, op_blocked_product, "A, B" },
  { "raked_product",   2, 2, op_raked_product,   "A, B" },
  { "local_tile",      3, 4, NULL,               "L, tiler, coord [, step]" },
  { "local_tile_proj", 4, 4, op_local_tile_proj, "L, tiler, coord, step" },
  { "local_partition", 3, 4, NULL,               "L, thread layout, index [, step]" },
  { "local_partition_proj", 4, 4, op_local_partition_proj, "L, thread layout, index, step" },
  { "inner_partition", 3, 3, op_inner_partition, "L, tiler, coord" },
  { "outer_partition", 3, 3, op_outer_partition, "L, tiler, coord" },
  { "slice",           2, 2, op_slice,           "L, coord" },
  { "identity_layout", 1, 1, op_identity_layout, "S" },
  { "identity_tensor", 1, 1, op_identity_tensor, "S" },
  { "identity_eval",   2, 2, op_identity_eval,   "S, index or coord" },
  { "swizzle",         4, 4, op_swizzle,         "B, M, S, offset" },
  { "identity_local_tile", 3, 4, NULL,           "S, tiler, coord [, step]" },
  { "identity_local_tile_proj", 4, 4, op_identity_local_tile_proj, "S, tiler, coord, step" },
  { "identity_local_partition", 3, 3, op_identity_local_partition, "S, thread layout, index" },
};

/* ops whose arity picks the function */
static op_fn by_arity(const char *name, int n)
{
  if (!strcmp(name, "coalesce"))            return n == 1 ? op_coalesce : op_coalesce_profile;
  if (!strcmp(name, "complement"))          return n == 1 ? op_complement1 : op_complement;
  if (!strcmp(name, "local_tile"))          return n == 3 ? op_local_tile : op_local_tile_proj;
  if (!strcmp(name, "local_partition"))     return n == 3 ? op_local_partition : op_local_partition_proj;
  if (!strcmp(name, "identity_local_tile")) return n == 3 ? op_identity_local_tile : op_identity_local_tile_proj;
  return NULL;
}

void calc_list(FILE *out)
{
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; ++i) fprintf(out, "%s(%s)\n", ops[i].name, ops[i].args);
}

/* ---- the expression parser ------------------------------------------------------------------- */

typedef struct { const char *start, *p; int depth; calc_result *r; } cursor;

static int col_of(cursor *c, const char *at) { return (int)(at - c->start) + 1; }
static void skip_ws(cursor *c) { while (*c->p == ' ' || *c->p == '\t') c->p++; }
static int is_name_start(char ch) { return ch >= 'a' && ch <= 'z'; }
static int is_name_char(char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_'; }

void calc_fail(calc_result *r, const char *msg, int col)
{
  r->ok = 0;
  snprintf(r->msg, sizeof r->msg, "%s", msg);
  r->col = col;
}

static int expr(cursor *c, arg *out);

static int call(cursor *c, arg *out)
{
  const char *name_at = c->p;
  char name[40];
  size_t n = 0;
  while (is_name_char(*c->p)) {
    if (n + 1 >= sizeof name) { calc_fail(c->r, "operation name too long", col_of(c, name_at)); return -1; }
    name[n++] = *c->p++;
  }
  name[n] = 0;
  const op_def *op = NULL;
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; ++i) if (!strcmp(ops[i].name, name)) op = &ops[i];
  if (!op) {
    char m[LT_MSG];
    snprintf(m, sizeof m, "unknown operation '%s' (layout --list shows them)", name);
    calc_fail(c->r, m, col_of(c, name_at));
    return -1;
  }
  skip_ws(c);
  if (*c->p != '(') { calc_fail(c->r, "expected '(' after the operation name", col_of(c, c->p)); return -1; }
  if (++c->depth > 16) { calc_fail(c->r, "calls nested too deeply", col_of(c, c->p)); return -1; }
  c->p++;
  arg a[MAX_ARGS];
  int na = 0;
  skip_ws(c);
  if (*c->p != ')') {
    for (;;) {
      if (na == MAX_ARGS) { calc_fail(c->r, "too many arguments", col_of(c, c->p)); return -1; }
      if (expr(c, &a[na]) != 0) return -1;
      na++;
      skip_ws(c);
      if (*c->p == ',') { c->p++; continue; }
      if (*c->p == ')') break;
      calc_fail(c->r, *c->p ? "expected ',' or ')' between arguments" : "unbalanced parentheses: missing ')'", col_of(c, c->p));
      return -1;
    }
  }
  c->p++;
  c->depth--;
  if (na < op->min || na > op->max) {
    char m[LT_MSG];
    snprintf(m, sizeof m, "%s takes %s%d argument%s (%s), not %d", name,
             op->min == op->max ? "" : "up to ", op->max, op->max == 1 ? "" : "s", op->args, na);
    calc_fail(c->r, m, col_of(c, name_at));
    return -1;
  }
  op_fn fn = op->fn ? op->fn : by_arity(name, na);
  calc_result res;
  memset(&res, 0, sizeof res);
  fn(a, &res);
  if (!lt_ok(&res.value) || (res.is_view && !lt_ok(&res.offset))) {
    const char *m = !lt_ok(&res.value) ? lt_error(&res.value) : lt_error(&res.offset);
    calc_fail(c->r, m, col_of(c, name_at));
    return -1;
  }
  out->v = res.value;
  out->off = res.offset;
  out->is_view = res.is_view;
  out->col = col_of(c, name_at);
  return 0;
}

static int expr(cursor *c, arg *out)
{
  skip_ws(c);
  out->is_view = 0;
  out->col = col_of(c, c->p);
  if (is_name_start(*c->p)) return call(c, out);
  int e = lt_parse_at(c->start, &c->p, &out->v);
  if (e) { calc_fail(c->r, lt_error(&out->v), e); return -1; }
  return 0;
}

void calc_eval(const char *text, calc_result *r)
{
  memset(r, 0, sizeof *r);
  cursor c = { text, text, 0, r };
  skip_ws(&c);
  if (!*c.p) { calc_fail(r, "empty expression", 1); return; }
  arg a;
  if (expr(&c, &a) != 0) return;
  skip_ws(&c);
  if (*c.p) { calc_fail(r, "unexpected text after the expression", col_of(&c, c.p)); return; }
  r->ok = 1;
  r->value = a.v;
  r->offset = a.off;
  r->is_view = a.is_view;
}

int calc_line(const char *line, size_t len, int tsv, calc_result *r, char *out, size_t cap)
{
  if (strlen(line) != len) {
    memset(r, 0, sizeof *r);
    calc_fail(r, "the line holds a NUL byte", (int)strlen(line) + 1);
  } else {
    calc_eval(line, r);
  }
  if (!r->ok) {
    snprintf(out, cap, "error: %s, at column %d", r->msg, r->col);
    return 1;
  }
  calc_format(r, tsv, out, cap);
  return 0;
}

void calc_format(const calc_result *r, int tsv, char *buf, size_t cap)
{
  if (!r->is_view) { lt_print(&r->value, buf, cap); return; }
  char l[4096], o[1024];
  lt_print(&r->value, l, sizeof l);
  lt_print(&r->offset, o, sizeof o);
  if (tsv) snprintf(buf, cap, "%s\t%s", l, o);
  else     snprintf(buf, cap, "%s o %s", o, l);
}

/* ---- --grid and --plot ----------------------------------------------------------------------- */

static int num_digits(int64_t x)
{
  int d = 1;
  while (x >= 10 && d < 19) { x /= 10; d++; }
  return d;
}

int calc_grid(const lt_val *l, FILE *grid, FILE *plot, char *msg, size_t cap)
{
  if (!lt_is_layout(l)) { snprintf(msg, cap, "--grid and --plot need a layout"); return -1; }
  lt_val rk = lt_rank(*l);
  if (lt_value(&rk) != 2) { snprintf(msg, cap, "--grid and --plot need a rank-2 layout, this one has rank %lld", (long long)lt_value(&rk)); return -1; }
  lt_val m0 = lt_get(*l, 0), m1 = lt_get(*l, 1);
  lt_val s0 = lt_size(m0), s1 = lt_size(m1), cs = lt_cosize(*l);
  if (!lt_is_int(&s0) || !lt_is_int(&s1) || !lt_is_int(&cs)) { snprintf(msg, cap, "--grid and --plot need integer strides"); return -1; }
  int64_t M = lt_value(&s0), N = lt_value(&s1);
  if (M > 1024 || N > 1024) { snprintf(msg, cap, "the layout is too large to draw (%lld x %lld; at most 1024 x 1024)", (long long)M, (long long)N); return -1; }
  int w = num_digits(lt_value(&cs)) + 2;
  if (grid) {
    fprintf(grid, "%s\n    ", lt_str(l));
    for (int64_t n = 0; n < N; ++n) fprintf(grid, "  %*lld ", w - 2, (long long)n);
    fprintf(grid, "\n");
  }
  if (plot) fprintf(plot, "# layout %s\n# rows %lld cols %lld\n", lt_str(l), (long long)M, (long long)N);
  for (int64_t m = 0; m < M; ++m) {
    if (grid) {
      fprintf(grid, "    ");
      for (int64_t n = 0; n < N; ++n) { fputc('+', grid); for (int i = 0; i < w; ++i) fputc('-', grid); }
      fprintf(grid, "+\n%2lld  ", (long long)m);
    }
    for (int64_t n = 0; n < N; ++n) {
      lt_val c[2] = { lt_int(m), lt_int(n) };
      lt_val v = lt_crd2idx(*l, lt_tuple_of(2, c));
      if (!lt_is_int(&v)) { snprintf(msg, cap, "%s", lt_ok(&v) ? "the layout does not map to integers" : lt_error(&v)); return -1; }
      if (grid) fprintf(grid, "| %*lld ", w - 2, (long long)lt_value(&v));
      if (plot) fprintf(plot, "%lld %lld %lld\n", (long long)m, (long long)n, (long long)lt_value(&v));
    }
    if (grid) fprintf(grid, "|\n");
  }
  if (grid) {
    fprintf(grid, "    ");
    for (int64_t n = 0; n < N; ++n) { fputc('+', grid); for (int i = 0; i < w; ++i) fputc('-', grid); }
    fprintf(grid, "+\n");
  }
  return 0;
}
