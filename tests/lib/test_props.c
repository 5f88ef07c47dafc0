/* test_props.c -- the algebra's contracts, checked over the whole domain of random layouts.
 *
 *   usage: test_props [CASES] [SEED]       (default 10000 cases per property, seed 1)
 *
 * Each property is checked on CASES random inputs for which the operation is defined (inputs the
 * library rejects with an error are drawn again, up to a limit), at every index of the domain:
 *
 *   composition   R = A o B:     R(i) == A(B(i))                       for all i < size(B)
 *   complement    R = A*(M):     R ordered; R(i) not in image(A) for i > 0;
 *                                (A,R) injective; size(filter(A)) * size(R) >= M
 *   coalesce      R(i) == A(i), size(R) == size(A), depth(R) <= 1, rank(R) <= rank(flatten(A))
 *   divide        logical_divide(A,B)(i) == A(make_layout(B, complement(B, size(A)))(i));
 *                 zipped, tiled and flat forms hold the same leaves
 *   product       logical_product(A,B)(i) == make_layout(A, complement(A, size(A)*cosize(B)) o B)(i);
 *                 size == size(A)*size(B); blocked and raked products hold the same offsets
 *   inverses      A(right_inverse(A)(i)) == i;  left_inverse(A)(A(i)) == i for injective A
 */
#include "layout.h"
#include "layout_device.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

/* ---- random numbers and layouts -------------------------------------------------------------- */

static uint64_t rng;
static uint32_t rnd(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return (uint32_t)(rng >> 11); }
static int rint_(int lo, int hi) { return lo + (int)(rnd() % (uint32_t)(hi - lo + 1)); }
static lt_val num(int64_t v) { return rint_(0, 1) ? lt_static(v) : lt_int(v); }

/* a shape of rank 1..3, nested once at most, leaves 1..6 (sometimes a rank-1 tuple) */
static lt_val rand_shape(int depth)
{
  if (depth == 0 || rint_(0, 2) == 0) return num(rint_(1, 6));
  int n = rint_(1, 3);
  lt_val m[3];
  for (int i = 0; i < n; ++i) m[i] = rand_shape(depth - 1);
  return lt_tuple_of(n, m);
}

/* strides congruent to shape s: random small values, or static when `static_strides` */
static lt_val rand_stride_like(const lt_val *s, int static_strides, int lo, int hi)
{
  if (!lt_is_tuple(s)) { int v = rint_(lo, hi); return static_strides ? lt_static(v) : num(v); }
  lt_val m[8];
  lt_val r = lt_rank(*s);
  int k = (int)lt_value(&r);
  for (int i = 0; i < k && i < 8; ++i) { lt_val c = lt_get(*s, i); m[i] = rand_stride_like(&c, static_strides, lo, hi); }
  return lt_tuple_of(k, m);
}

static lt_layout rand_layout(void)
{
  lt_val s = rand_shape(2);
  return lt_make_layout_sd(s, rand_stride_like(&s, 0, 0, 12));
}

/* an injective layout: flat modes with strides growing past the previous mode's extent, shuffled */
static lt_layout rand_injective(int static_strides)
{
  int n = rint_(1, 3);
  int64_t sh[3], st[3], next = rint_(1, 3);
  for (int i = 0; i < n; ++i) { sh[i] = rint_(2, 5); st[i] = next; next = st[i] * sh[i] * rint_(1, 3); }
  for (int i = n - 1; i > 0; --i) { int j = rint_(0, i); int64_t a = sh[i], b = st[i]; sh[i] = sh[j]; st[i] = st[j]; sh[j] = a; st[j] = b; }
  lt_val S[3], D[3];
  for (int i = 0; i < n; ++i) { S[i] = num(sh[i]); D[i] = (static_strides || n > 1) ? lt_static(st[i]) : num(st[i]); }
  if (n == 1 && rint_(0, 1)) return lt_make_layout_sd(S[0], D[0]);
  return lt_make_layout_sd(lt_tuple_of(n, S), lt_tuple_of(n, D));
}

/* ---- evaluation: the device form when it fits, the library otherwise ------------------------- */

typedef struct { ltd_layout d; int fast; lt_layout l; } ev;

static ev prep(const lt_layout *l)
{
  ev e;
  char err[256];
  e.l = *l;
  e.fast = ltd_from_layout(l, &e.d, err, sizeof err) == 0;
  return e;
}

static int64_t at(const ev *e, int64_t i)
{
  if (e->fast) return ltd_eval(&e->d, (int)i);
  lt_val v = lt_crd2idx(e->l, lt_int(i));
  return lt_value(&v);
}

static int64_t isize(const lt_val *x) { lt_val s = lt_size(*x); return lt_value(&s); }

/* ---- admissible inputs ------------------------------------------------------------------------
 * CuTe's composition is correct only for admissible inputs: walking A's (coalesced) modes, the
 * stride of B must first divide out whole modes and then land inside a mode it divides, and B's
 * shape must then fill that mode and whole modes after it.  CuTe asserts a weaker condition, so
 * the properties are checked on inputs admissible by construction. */

static int flat_shape(const lt_layout *A, int64_t *a)
{
  lt_layout c = lt_coalesce(*A);
  lt_val f = lt_flatten(lt_shape(c));
  lt_val r = lt_rank(f);
  int n = (int)lt_value(&r);
  if (!lt_is_tuple(&f)) { a[0] = lt_value(&f); return 1; }
  for (int i = 0; i < n && i < 16; ++i) { lt_val x = lt_get(f, i); a[i] = lt_value(&x); }
  return n < 16 ? n : 16;
}

static int64_t rand_divisor(int64_t x)
{
  int64_t d[64]; int n = 0;
  for (int64_t k = 1; k <= x && n < 64; ++k) if (x % k == 0) d[n++] = k;
  return n ? d[rint_(0, n - 1)] : 1;
}

/* one admissible (shape, stride) for a layout of flat shape a[0..n) */
static void admissible_mode(const int64_t *a, int n, int64_t *s, int64_t *d, int unit_stride)
{
  int k = unit_stride ? 0 : rint_(0, n - 1);
  int64_t pre = 1;
  for (int i = 0; i < k; ++i) pre *= a[i];
  int64_t f = unit_stride ? 1 : (k == n - 1 ? rint_(1, 3) : rand_divisor(a[k]));
  *d = pre * f;
  if (k == n - 1) { *s = rint_(1, 4); return; }
  int64_t rem = a[k] / f;
  int j = rint_(k, n - 1);
  if (j == k) { *s = rand_divisor(rem); return; }
  int64_t sz = rem;
  for (int i = k + 1; i < j; ++i) sz *= a[i];
  *s = sz * (j == n - 1 ? rint_(1, 3) : rand_divisor(a[j]));
}

/* B for A o B: one admissible mode, or several modes over disjoint ranges of A's modes (the
 * distributive law A o (B0,B1) = (A o B0, A o B1) needs B's modes to address disjoint digits). */
static lt_layout admissible_rhs(const lt_layout *A)
{
  int64_t a[16];
  int n = flat_shape(A, a);
  lt_val S[3], D[3];
  if (n < 2 || rint_(0, 1)) {
    int64_t s, d;
    admissible_mode(a, n, &s, &d, 0);
    S[0] = num(s); D[0] = num(d);
    if (rint_(0, 1)) return lt_make_layout_sd(S[0], D[0]);
    return lt_make_layout_sd(lt_tuple_of(1, S), lt_tuple_of(1, D));
  }
  int cut = rint_(1, n - 1), modes = 0;         /* ranges [0,cut) and [cut,n) in either order */
  int64_t p0 = 1, p1 = 1;
  for (int i = 0; i < cut; ++i) p0 *= a[i];
  for (int i = cut; i < n; ++i) p1 *= a[i];
  int swap = rint_(0, 1);
  S[modes] = num(swap ? p1 : p0); D[modes++] = num(swap ? p0 : 1);
  S[modes] = num(swap ? p0 : p1); D[modes++] = num(swap ? 1 : p0);
  return lt_make_layout_sd(lt_tuple_of(modes, S), lt_tuple_of(modes, D));
}

/* ---- the properties -------------------------------------------------------------------------- */

#define MAX_TRIES 400

static void prop_composition(int cases)
{
  int done = 0, tries = 0, bad = 0;
  while (done < cases && tries < cases * MAX_TRIES) {
    tries++;
    lt_layout A = rand_layout(), B = admissible_rhs(&A);
    ev eA = prep(&A), eB = prep(&B);
    int64_t n = isize(&B), na = isize(&A), inside = 1;
    for (int64_t i = 0; i < n && inside; ++i) inside = at(&eB, i) >= 0 && at(&eB, i) < na;
    if (!inside) continue;                          /* B must map into A's domain */
    lt_layout R = lt_composition(A, B);
    if (!lt_ok(&R)) { if (bad++ < 5) EXPECT(0, "composition(%s, %s) refused an admissible pair: %s", lt_str(&A), lt_str(&B), lt_error(&R)); continue; }
    done++;
    ev eR = prep(&R);
    for (int64_t i = 0; i < n; ++i) {
      int64_t want = at(&eA, at(&eB, i)), got = at(&eR, i);
      if (want != got) {
        if (bad++ < 5) EXPECT(0, "composition(%s, %s) = %s: at %lld gives %lld, A(B(i)) is %lld",
                              lt_str(&A), lt_str(&B), lt_str(&R), (long long)i, (long long)got, (long long)want);
        break;
      }
    }
  }
  CHECK(done == cases && bad == 0, "composition(A,B)(i) == A(B(i)) on %d random pairs (%d drawn)", done, tries);
}

static void prop_complement(int cases)
{
  int done = 0, tries = 0, bad = 0;
  while (done < cases && tries < cases * MAX_TRIES) {
    tries++;
    lt_layout A = rand_injective(0);
    lt_val cs = lt_cosize(A);
    int64_t M = lt_value(&cs) * rint_(1, 4);
    lt_layout C = lt_complement(A, lt_int(M));
    if (!lt_ok(&C)) continue;
    done++;
    if (isize(&A) < 1 || isize(&C) < 1) { if (bad++ < 5) EXPECT(0, "complement(%s, %lld) = %s is empty", lt_str(&A), (long long)M, lt_str(&C)); continue; }
    ev eA = prep(&A), eC = prep(&C);
    int64_t na = isize(&A), nc = isize(&C);
    char why[160] = "";
    for (int64_t i = 1; i < nc && !why[0]; ++i)
      if (at(&eC, i) <= at(&eC, i - 1)) snprintf(why, sizeof why, "not ordered at %lld", (long long)i);
    for (int64_t i = 1; i < nc && !why[0]; ++i)
      for (int64_t j = 0; j < na; ++j)
        if (at(&eC, i) == at(&eA, j)) { snprintf(why, sizeof why, "R(%lld) == A(%lld)", (long long)i, (long long)j); break; }
    if (!why[0]) {
      /* (A, R) injective: every sum distinct */
      int64_t tot = na * nc;
      char *seen = calloc((size_t)(at(&eA, na - 1) + at(&eC, nc - 1) + 2) * 2 + (size_t)tot + 64, 1);
      int64_t lim = (at(&eA, na - 1) + at(&eC, nc - 1) + 2) * 2 + tot + 64;
      for (int64_t j = 0; j < na && !why[0]; ++j)
        for (int64_t i = 0; i < nc; ++i) {
          int64_t v = at(&eA, j) + at(&eC, i);
          if (v < 0 || v >= lim) continue;
          if (seen[v]) { snprintf(why, sizeof why, "(A,R) not injective at %lld", (long long)v); break; }
          seen[v] = 1;
        }
      free(seen);
    }
    lt_layout F = lt_filter(A);
    if (!why[0] && isize(&F) * nc < M) snprintf(why, sizeof why, "does not cover %lld", (long long)M);
    if (why[0] && bad++ < 5) EXPECT(0, "complement(%s, %lld) = %s: %s", lt_str(&A), (long long)M, lt_str(&C), why);
  }
  CHECK(done == cases && bad == 0, "complement ordered, disjoint, (A,R) injective and covering on %d random layouts (%d drawn)", done, tries);
}

static void prop_coalesce(int cases)
{
  int bad = 0;
  for (int k = 0; k < cases; ++k) {
    lt_layout A = rand_layout(), C = lt_coalesce(A);
    ev eA = prep(&A), eC = prep(&C);
    int64_t n = isize(&A);
    lt_val d = lt_depth(C), rc = lt_rank(C), fa = lt_flatten(A), rf = lt_rank(fa);
    int okk = lt_ok(&C) && isize(&C) == n && lt_value(&d) <= 1 && lt_value(&rc) <= lt_value(&rf);
    for (int64_t i = 0; okk && i < n; ++i) okk = at(&eA, i) == at(&eC, i);
    if (!okk && bad++ < 5) EXPECT(0, "coalesce(%s) = %s", lt_str(&A), lt_str(&C));
  }
  CHECK(bad == 0, "coalesce keeps the function, the size, depth <= 1 and never grows the rank on %d random layouts", cases);
}

static lt_layout rand_tiler_for(const lt_layout *A)
{
  int64_t a[16], t, d;
  int n = flat_shape(A, a);
  admissible_mode(a, n, &t, &d, 1);
  int64_t total = 1;
  for (int i = 0; i < n; ++i) total *= a[i];
  if (total % t != 0) t = 1;                       /* the complement must fill size(A) exactly */
  return lt_make_layout_sd(num(t), lt_static(1));
}

static void prop_divide(int cases)
{
  int done = 0, tries = 0, bad = 0;
  while (done < cases && tries < cases * MAX_TRIES) {
    tries++;
    lt_layout A = rand_layout();
    lt_layout T = rand_tiler_for(&A);
    lt_layout L = lt_logical_divide(A, T);
    if (!lt_ok(&L)) continue;
    done++;
    lt_val parts[2] = { T, lt_complement(T, lt_size(A)) };
    lt_layout rhs = lt_make_layout_of(2, parts);
    ev eA = prep(&A), eL = prep(&L), eR = prep(&rhs);
    int64_t n = isize(&L);
    const char *why = NULL;
    for (int64_t i = 0; i < n && !why; ++i)
      if (at(&eL, i) != at(&eA, at(&eR, i))) why = "differs from A o (B, complement(B, size(A)))";
    lt_layout Z = lt_zipped_divide(A, T), Ti = lt_tiled_divide(A, T), Fl = lt_flat_divide(A, T);
    lt_val fz = lt_flatten(Z), ft = lt_flatten(Ti), ff = lt_flatten(Fl), fl = lt_flatten(L);
    if (!why && !(lt_equal(&fz, &ft) && lt_equal(&fz, &ff) && lt_equal(&fz, &fl))) why = "zipped/tiled/flat forms hold different leaves";
    if (why && bad++ < 5) EXPECT(0, "logical_divide(%s, %s) = %s: %s", lt_str(&A), lt_str(&T), lt_str(&L), why);
  }
  CHECK(done == cases && bad == 0, "logical_divide agrees with its definition, zipped/tiled/flat agree, on %d random pairs (%d drawn)", done, tries);
}

static int cmp64(const void *a, const void *b) { int64_t x = *(const int64_t *)a, y = *(const int64_t *)b; return (x > y) - (x < y); }

static int same_offsets(const lt_layout *a, const lt_layout *b)
{
  int64_t n = isize(a);
  if (n != isize(b) || n > 100000) return n == isize(b);
  int64_t *x = malloc(sizeof(int64_t) * (size_t)n), *y = malloc(sizeof(int64_t) * (size_t)n);
  ev ea = prep(a), eb = prep(b);
  for (int64_t i = 0; i < n; ++i) { x[i] = at(&ea, i); y[i] = at(&eb, i); }
  qsort(x, (size_t)n, sizeof *x, cmp64);
  qsort(y, (size_t)n, sizeof *y, cmp64);
  int same = memcmp(x, y, sizeof(int64_t) * (size_t)n) == 0;
  free(x); free(y);
  return same;
}

static void prop_product(int cases)
{
  int done = 0, tries = 0, bad = 0;
  while (done < cases && tries < cases * MAX_TRIES) {
    tries++;
    lt_layout A = rand_injective(1), B = rand_injective(rint_(0, 1));
    lt_layout P = lt_logical_product(A, B);
    if (!lt_ok(&P)) continue;
    done++;
    lt_val cB = lt_cosize(B);
    lt_val cot = lt_int(isize(&A) * lt_value(&cB));
    lt_val parts[2] = { A, lt_composition(lt_complement(A, cot), B) };
    lt_layout def = lt_make_layout_of(2, parts);
    ev eP = prep(&P), eD = prep(&def);
    const char *why = NULL;
    int64_t n = isize(&P);
    if (n != isize(&A) * isize(&B)) why = "size is not size(A)*size(B)";
    for (int64_t i = 0; i < n && !why; ++i) if (at(&eP, i) != at(&eD, i)) why = "differs from (A, complement(A, size(A)*cosize(B)) o B)";
    lt_layout Bl = lt_blocked_product(A, B), Rk = lt_raked_product(A, B);
    /* blocked and raked products need ranks CuTe can zip (CuTe refuses the others too) */
    if (!why && lt_ok(&Bl) && lt_ok(&Rk) && !(same_offsets(&Bl, &P) && same_offsets(&Rk, &P)))
      why = "blocked/raked products hold other offsets";
    if (why && bad++ < 5) EXPECT(0, "logical_product(%s, %s) = %s: %s", lt_str(&A), lt_str(&B), lt_str(&P), why);
  }
  CHECK(done == cases && bad == 0, "logical/blocked/raked products agree with the definition on %d random pairs (%d drawn)", done, tries);
}

static void prop_inverses(int cases)
{
  int bad = 0, left = 0;
  for (int k = 0; k < cases; ++k) {
    lt_layout A = rint_(0, 1) ? rand_layout() : rand_injective(1);
    lt_layout Ri = lt_right_inverse(A);
    ev eA = prep(&A), eR = prep(&Ri);
    const char *why = lt_ok(&Ri) ? NULL : "right_inverse failed";
    int64_t n = why ? 0 : isize(&Ri);
    for (int64_t i = 0; i < n && !why; ++i) if (at(&eA, at(&eR, i)) != i) why = "A(right_inverse(A)(i)) != i";
    if (!why) {
      lt_layout I = rand_injective(1);
      lt_layout Li = lt_left_inverse(I);
      if (!lt_ok(&Li)) why = "left_inverse failed";
      ev eI = prep(&I), eL = prep(&Li);
      int64_t m = isize(&I);
      for (int64_t i = 0; i < m && !why; ++i) if (at(&eL, at(&eI, i)) != i) { why = "left_inverse(A)(A(i)) != i"; A = I; Ri = Li; }
      left++;
    }
    if (why && bad++ < 5) EXPECT(0, "%s: A = %s, inverse = %s", why, lt_str(&A), lt_str(&Ri));
  }
  CHECK(bad == 0, "right inverse on %d random layouts, left inverse on %d injective layouts", cases, left);
}

int main(int argc, char **argv)
{
  int cases = argc > 1 ? atoi(argv[1]) : 10000;
  rng = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
  if (cases < 1) cases = 1;
  if (rng == 0) rng = 1;
  prop_composition(cases);
  prop_complement(cases);
  prop_coalesce(cases);
  prop_divide(cases);
  prop_product(cases);
  prop_inverses(cases);
  return TAP_DONE();
}
