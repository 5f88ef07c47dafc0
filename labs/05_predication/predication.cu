/* Lab 05 -- predication: when tiling isn't perfect.
 *
 * What it shows
 *   1. the host algebra: why logical_divide rounds up (1000 by 128), the identity tensor of a
 *      41 x 55 matrix, the same (_4,_8) tiling applied to the data and to the identity, the origin
 *      of the last (ragged) tile, one thread's coordinates and its predicates;
 *   2. the kernel: a tiled copy-and-scale B = alpha * A of an M x N column-major matrix with any
 *      M, N >= 1 and any leading dimension ld >= M, written the way CuTe writes it -- local_tile and
 *      local_partition over the data *and* over an identity tensor, a predicate computed once per
 *      thread from the coordinates and the bounds (M,N), then a masked copy (copy_if).  The m
 *      predicates are stored once and broadcast over the n mode with stride 0, and the n predicates
 *      the other way round;
 *   3. a host run of the very same thread code (every CTA, every thread, on the CPU) for the
 *      41 x 55 example, with the matrix inside a poisoned guard band -- so the host part alone
 *      proves the predicates right, and the exercises can be checked without a GPU;
 *   4. on the GPU, the same check for 41 x 55 and for over 200 shapes from 1 to 5000 (odd, prime,
 *      1 x N, M x 1, ld > M): the guard band (before, after, and the padding rows between columns)
 *      must be untouched and every element right;
 *   5. what predication costs: the predicated kernel against the same kernel without predicates
 *      on a size that divides evenly, and a ragged size against the next divisible one, each as a
 *      fraction of cudaMemcpy's speed.
 *
 * Build and run
 *   make run LAB=05                           (or: make build/bin/05_predication && build/bin/05_predication)
 *   build/bin/05_predication --data DIR       also write the figures' data into DIR
 *   build/bin/05_predication --quick          time 2048 x 2048 instead of 8192 x 8192
 *   build/bin/05_predication --check-only     verify, do not time (for compute-sanitizer)
 *
 *   Compile-time switches, for proving that the checks catch a missing predicate:
 *   -DDROP_PREDICATE_N   the n predicate is taken away (every column counts as in bounds)
 *   -DDROP_PREDICATE_M   the m predicate is taken away (every row counts as in bounds)
 *   e.g. nvcc $NVCCFLAGS -DDROP_PREDICATE_N -o build/drop_n labs/05_predication/predication.cu build/lib/liblayout.a
 *   (tests/checks/75_predication_guard.sh does exactly this and expects the guard band to fail).
 *
 * What it prints
 *   the host algebra and the host run (deterministic: the chapter includes them), then PASS/FAIL
 *   for each device check, then `bench:` lines.  Without a GPU it prints the host part and
 *   "no CUDA device: skipping the device part".  It exits non-zero on any FAIL.
 */
#include "layout.h"
#include "layout_device.h"
#include "labkit.h"
#include <math.h>

/* ------------------------------------------------------------------------------------------------
 * Host algebra
 * ---------------------------------------------------------------------------------------------- */

static lt_val pair(int64_t a, int64_t b) { lt_val c[2] = { lt_int(a), lt_int(b) }; return lt_tuple_of(2, c); }
static int64_t ival(lt_val v) { return lt_value(&v); }

static void show_layout(const char *cute, lt_layout l) { printf("  %-38s -> %s\n", cute, lt_str(&l)); }
static void show_view(const char *cute, lt_view v)
{
  printf("  %-38s -> %s o %s\n", cute, lt_str(&v.offset), lt_str(&v.layout));
}

// ANCHOR: rounds_up
/* 1000 elements in tiles of 128: logical_divide keeps all 1000 and rounds the number of tiles up
 * to 8 (the last tile holds 1000 - 7*128 = 104 real elements).  The static marks decide how CuTe
 * shapes the result. */
static void rounds_up(void)
{
  printf("logical_divide rounds up (1000 elements, tiles of 128):\n");
  show_layout("logical_divide(1000:1, 128:1)", lt_logical_divide(P("1000:1"), P("128:1")));
  show_layout("logical_divide(1000:_1, _128:_1)", lt_logical_divide(P("1000:_1"), P("_128:_1")));
}
// ANCHOR_END: rounds_up

// ANCHOR: coord_component
/* The coordinate layout for the device.  An identity layout has basis strides:
 * _1@0 adds 1 to coordinate 0 (m), _1@1 adds 1 to coordinate 1 (n).  Keeping
 * only the @k part of every stride (0 where the stride is @ another coordinate)
 * gives a plain integer layout whose value is coordinate k: component 0 of
 *   ((_4,_8),(11,7)):((_1@0,_1@1),(_4@0,_8@1))
 * is
 *   ((_4,_8),(11,7)):((_1,_0),(_4,_0)).
 * The device evaluates two such layouts, one for m and one for n.  Each stride
 * node carries nb basis indices: 0 for a plain integer, 1 for s@k, and more for
 * a basis that points into a nested coordinate (s@1@0: sub-coordinate 1 of
 * coordinate 0), which an identity tensor of a nested shape would have.  A
 * rank-2 (M,N) never does; such a layout is refused rather than mis-read. */
static lt_layout coord_component(lt_layout l, int k)
{
  lt_node *s = l.nd + 1, *d = s + s->span;
  for (lt_node *x = d; x < d + d->span; ++x) {
    if (x->kind != LT_INT) continue;
    if (x->nb > 1)
      return lt_error_val("coord_component: nested basis %s", lt_str(&l));
    if (x->nb == 1) { x->v = x->b[0] == k ? x->v : 0; x->nb = 0; }
  }
  return l;
}
// ANCHOR_END: coord_component

// ANCHOR: example_41x55
/* The 41 x 55 example: tiles of (_4,_8), threads (_2,_4).  The same tiler goes
 * over the data and over the identity tensor, so every element travels with
 * its coordinate. */
#define EX_M      41
#define EX_N      55
#define EX_BM     4      // the tiler (_4,_8)
#define EX_BN     8
#define EX_TM     2      // the threads (_2,_4):(_1,_2)
#define EX_TN     4
#define EX_THREAD 6      // a thread of the last tile with a mixed pattern
static void example_41x55(void)
{
  char tiler_s[32], thr_s[48];
  snprintf(tiler_s, sizeof tiler_s, "(_%d,_%d)", EX_BM, EX_BN);
  snprintf(thr_s, sizeof thr_s, "(_%d,_%d):(_1,_%d)", EX_TM, EX_TN, EX_TM);
  lt_val shape = pair(EX_M, EX_N), tiler = P(tiler_s);
  lt_layout thr = P(thr_s);
  // make_tensor(ptr, (M,N), (_1,ld)) and make_identity_tensor((M,N))
  lt_view mA = lt_tensor(lt_make_layout_sd(shape, P("(_1,41)")));
  lt_view cA = lt_identity_tensor(shape);
  printf("the %d x %d example, tiler %s, threads %s:\n",
         EX_M, EX_N, tiler_s, thr_s);
  show_view("mA = tensor((41,55):(_1,41))", mA);
  show_view("cA = make_identity_tensor((41,55))", cA);
  show_layout("zipped_divide(mA, tiler)", lt_zipped_divide(mA.layout, tiler));
  lt_layout zc = lt_zipped_divide(cA.layout, tiler);
  show_layout("zipped_divide(cA, tiler)", zc);
  show_layout("  its m component (device)", coord_component(zc, 0));
  show_layout("  its n component (device)", coord_component(zc, 1));

  lt_layout rest = lt_get(zc, 1);                    // (tiles_m, tiles_n)
  int64_t tm = ival(lt_size(lt_get(rest, 0)));
  int64_t tn = ival(lt_size(lt_get(rest, 1)));
  lt_val last = pair(tm - 1, tn - 1);
  printf("  %lld x %lld tiles; the last one is (%lld,%lld)\n",
         (long long)tm, (long long)tn, (long long)(tm - 1), (long long)(tn - 1));
  show_view("gA = local_tile(mA, tiler, last)", lt_local_tile(&mA, tiler, last));
  lt_view cta_c = lt_local_tile(&cA, tiler, last);
  show_view("cta_cA = local_tile(cA, tiler, last)", cta_c);

  /* the predicate of the whole last tile: coordinate < (M,N), element by
   * element (elem_less) */
  int64_t bm = ival(lt_size(lt_get(tiler, 0)));
  int64_t bn = ival(lt_size(lt_get(tiler, 1)));
  printf("  its predicate, elem_less(cta_cA(i,j), (41,55)), rows i, columns j:\n");
  for (int64_t i = 0; i < bm; ++i) {
    printf("   ");
    for (int64_t j = 0; j < bn; ++j) {
      lt_val c = lt_view_eval(&cta_c, pair(i, j));
      printf(" %d", ival(lt_get(c, 0)) < EX_M && ival(lt_get(c, 1)) < EX_N);
    }
    printf("\n");
  }

  /* one thread: local_partition of the identity tile gives its coordinates */
  int t = EX_THREAD;
  lt_view tc = lt_local_partition(&cta_c, thr, lt_int(t));
  char what[64];
  snprintf(what, sizeof what, "tAcA = local_partition(cta_cA, thr, %d)", t);
  show_view(what, tc);
  lt_view gA = lt_local_tile(&mA, tiler, last);
  show_view("tAgA = local_partition(gA, thr, same)",
            lt_local_partition(&gA, thr, lt_int(t)));
  int64_t vm = ival(lt_size(lt_get(tc.layout, 0)));
  int64_t vn = ival(lt_size(lt_get(tc.layout, 1)));
  printf("  thread %d: m predicates (stored once, broadcast over n):", t);
  for (int64_t i = 0; i < vm; ++i)
    printf(" %d", ival(lt_get(lt_view_eval(&tc, pair(i, 0)), 0)) < EX_M);
  printf("\n  thread %d: n predicates (stored once, broadcast over m):", t);
  for (int64_t j = 0; j < vn; ++j)
    printf(" %d", ival(lt_get(lt_view_eval(&tc, pair(0, j)), 1)) < EX_N);
  printf("\n");
}
// ANCHOR_END: example_41x55

/* ------------------------------------------------------------------------------------------------
 * The kernels (each thread's code is __host__ __device__: the host part runs it on the CPU too)
 * ---------------------------------------------------------------------------------------------- */

// ANCHOR: tiling_struct
/* What the host computes once and hands to the kernel by value.  The three
 * layouts have the same shape ((BLK_M,BLK_N),(tiles_m,tiles_n)); flattened for
 * the device their leaves are, in order: BLK_M, BLK_N, tiles_m, tiles_n. */
typedef struct tiling {
  ltd_layout data;   // zipped_divide(mA, tiler):
                     //   ((BLK_M,BLK_N),(tiles_m,tiles_n)):((_1,ld),(BLK_M,BLK_N*ld))
                     //   so data.stride[1], the tile's n stride, is ld
  ltd_layout crd_m;  // zipped_divide(cA, tiler), m component:
                     //   ((BLK_M,BLK_N),(tiles_m,tiles_n)):((_1,_0),(BLK_M,_0))
  ltd_layout crd_n;  // zipped_divide(cA, tiler), n component:
                     //   ((BLK_M,BLK_N),(tiles_m,tiles_n)):((_0,_1),(_0,BLK_N))
  int M, N;          // the bounds the predicates compare with: shape(mA)
} tiling;
// ANCHOR_END: tiling_struct

#if defined(DROP_PREDICATE_N) || defined(DROP_PREDICATE_M)
#define DROPPED_PREDICATE 1
#else
#define DROPPED_PREDICATE 0
#endif

// ANCHOR: copy_scale_thread
/* Thread `tid` of CTA `cta` copies and scales its elements of the CTA's (bm,bn)
 * tile.  The threads form a (tm,tn) column-major thread layout, (tm,tn):(1,tm);
 * precondition: tm divides bm and tn divides bn, so each thread owns exactly
 * (vm,vn) = (bm/tm, bn/tn) elements and no element is left over.  Called with
 * constant tile sizes (the kernels below), everything folds to plain index
 * arithmetic.
 *
 * The device helpers (lib/layout_device.h), all on flat integer layouts:
 *   ltd_tile2(m, n, s0, s1)  the layout (m,n):(s0,s1)
 *   ltd_eval(&l, i)          l at the 1-D colexicographic index i; for an
 *                            (m,n) layout, i = a + m*b is the coordinate (a,b)
 *   ltd_mode(&l, k, i)       top-level mode k of l alone at the 1-D index i */
static __host__ __device__ __forceinline__ void
copy_scale_thread(const float *src, float *dst, float alpha, const tiling *t,
                  int cta, int tid, int bm, int bn, int tm, int tn,
                  int predicated)
{
  const int vm = bm / tm, vn = bn / tn;   // the thread's values: (vm,vn)
  // step 2, the same tiling: local_tile(mA, tiler, cta), local_tile(cA, ...)
  int base = ltd_mode(&t->data, 1, cta);  // gA's first element
  int m0 = ltd_mode(&t->crd_m, 1, cta);   // cta_cA's origin (m0,n0)
  int n0 = ltd_mode(&t->crd_n, 1, cta);
  // local_partition(gA, thr, tid) and local_partition(cta_cA, thr, tid):
  // the thread's first element (thr_*) and its (vm,vn) values (val_*), for
  // the data and for each coordinate component of (tm,tn):(_1@0,_1@1)
  int ld = t->data.stride[1];             // leaf 1 of data: the tile's n stride
  ltd_layout thr_g = ltd_tile2(tm, tn, 1, ld);
  ltd_layout val_g = ltd_tile2(vm, vn, tm, tn * ld);
  ltd_layout thr_m = ltd_tile2(tm, tn, 1, 0);      // m component
  ltd_layout val_m = ltd_tile2(vm, vn, tm, 0);
  ltd_layout thr_n = ltd_tile2(tm, tn, 0, 1);      // n component
  ltd_layout val_n = ltd_tile2(vm, vn, 0, tn);
  int g0 = base + ltd_eval(&thr_g, tid);  // tAgA's first element
  int cm = m0 + ltd_eval(&thr_m, tid);    // tAcA's origin (cm,cn)
  int cn = n0 + ltd_eval(&thr_n, tid);

  // step 3, the predicate tensor: tApA(i,j) = elem_less(tAcA(i,j), (M,N)).
  // The m coordinate has stride 0 over j, so the m predicates are vm bits
  // stored once, (vm,vn):(_1,_0); the n predicates are vn bits, (vm,vn):(_0,_1).
  // tApA(i,j) = pm(i) && pn(j).  The 1-D index j*vm is the coordinate (0,j).
  unsigned pm = 0, pn = 0;
  for (int i = 0; i < vm; ++i)
    pm |= (unsigned)(cm + ltd_eval(&val_m, i) < t->M) << i;
  for (int j = 0; j < vn; ++j)
    pn |= (unsigned)(cn + ltd_eval(&val_n, j * vm) < t->N) << j;
#ifdef DROP_PREDICATE_M
  pm = ~0u;                 // a missing m predicate (a deliberate bug)
#endif
#ifdef DROP_PREDICATE_N
  pn = ~0u;                 // a missing n predicate (a deliberate bug)
#endif
  if (!predicated) pm = pn = ~0u;

  // step 4, the masked access: copy_if(tApA, tAgA, tAgB), scaled on the way
  for (int j = 0; j < vn; ++j)
    for (int i = 0; i < vm; ++i)
      if ((pm >> i) & (pn >> j) & 1u) {
        int o = g0 + ltd_eval(&val_g, i + vm * j);
        dst[o] = alpha * src[o];
      }
}
// ANCHOR_END: copy_scale_thread

// ANCHOR: kernels
#define BLK_M     128   // the CTA tile (_128,_32) ...
#define BLK_N     32
#define THREADS_M 32    // ... over 256 threads as (_32,_8):(_1,_32),
#define THREADS_N 8     //     so each thread owns (_4,_4) elements
#define THREADS   (THREADS_M * THREADS_N)

/* Launched as <<<ceil(M/BLK_M) * ceil(N/BLK_N), THREADS>>>: one CTA per tile,
 * blockIdx.x = tile_m + tiles_m * tile_n, the rest mode's colex index. */
__global__ void __launch_bounds__(THREADS)
copy_scale_predicated(const float *__restrict__ src, float *__restrict__ dst,
                      float alpha, tiling t)
{
  copy_scale_thread(src, dst, alpha, &t, blockIdx.x, threadIdx.x,
                    BLK_M, BLK_N, THREADS_M, THREADS_N, 1);
}

/* The same kernel without predicates: right only when BLK_M divides M and
 * BLK_N divides N. */
__global__ void __launch_bounds__(THREADS)
copy_scale_unpredicated(const float *__restrict__ src, float *__restrict__ dst,
                        float alpha, tiling t)
{
  copy_scale_thread(src, dst, alpha, &t, blockIdx.x, threadIdx.x,
                    BLK_M, BLK_N, THREADS_M, THREADS_N, 0);
}
// ANCHOR_END: kernels

// ANCHOR: row_sum_thread
/* A reduction over k: y(m) = sum_k A(m,k), the way a GEMM's mainloop walks k.
 * One CTA takes BLK_M rows (a (BLK_M,BLK_K) tile per k step), each thread one
 * row (thread layout (BLK_M,1)).  The m predicate is computed once, before the
 * k loop, and used by every k tile: a (1,BLK_K) tensor with stride (_1,_0),
 * broadcast across k.  This version handles only K that BLK_K divides: the
 * k residue is exercise 2. */
#define BLK_K 8
static __host__ __device__ __forceinline__ void
row_sum_thread(const float *A, float *y, int M, int K, int ld,
               int cta, int tid, int bm, int bk)
{
  int m = cta * bm + tid;          // this thread's row: tAcA's m coordinate
  int pm = m < M;                  // the m predicate, stored once
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += bk)   // the k tiles: local_tile(mA, tiler, (cta,_))
    for (int j = 0; j < bk; ++j)
      if (pm)                      // broadcast: the same pm for every k
        acc += A[m + (k0 + j) * ld];
  if (pm) y[m] = acc;
}
static int row_sum_supports(int K) { return K % BLK_K == 0; }
// ANCHOR_END: row_sum_thread

__global__ void __launch_bounds__(BLK_M)
row_sum(const float *__restrict__ A, float *__restrict__ y, int M, int K, int ld)
{
  row_sum_thread(A, y, M, K, ld, blockIdx.x, threadIdx.x, BLK_M, BLK_K);
}

/* Values: a matrix element is a function of its offset, exact in float (at most 16 significant
 * bits), so alpha * value is exact and the check compares bits.  The destination's poison is NaN
 * with all bits set.  The source's guard band and padding hold a *different* NaN: a stray load
 * poisons a sum, and a stray store of alpha * (source poison) can never reproduce the
 * destination's poison by accident (on a CPU, NaN * 3 keeps its bits: with one poison for both,
 * a missing predicate went unseen). */
#define ALPHA 3.0f
static __host__ __device__ inline float value_at(long long o)
{
  unsigned h = (unsigned)(o * 2654435761ll) ^ (unsigned)(o >> 16);
  return (float)((int)((h >> 8) & 0xffff) - 32768) / 256.0f;
}
#define POISON     0xffffffffu
#define SRC_POISON 0x7fc0deadu

/* The source: matrix elements get their values, the padding rows (ld > M) and the guard band
 * stay poison, so a load that strays shows up as NaN. */
__global__ void fill_source(float *alloc, long long guard, int M, int ld, long long total)
{
  for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < total; k += (long long)gridDim.x * blockDim.x) {
    long long o = k - guard;
    unsigned bits = SRC_POISON;
    if (o >= 0 && o < total - 2 * guard && (int)(o % ld) < M) { float v = value_at(o); memcpy(&bits, &v, 4); }
    ((unsigned *)alloc)[k] = bits;
  }
}

/* ------------------------------------------------------------------------------------------------
 * Host: the tiling, the guard band and the verification
 * ---------------------------------------------------------------------------------------------- */

static ltd_layout device_form(const lt_layout *l)
{
  ltd_layout d;
  char err[256];
  if (ltd_from_layout(l, &d, err, sizeof err) != 0) { fprintf(stderr, "device form: %s\n", err); exit(1); }
  return d;
}

// ANCHOR: make_tiling
/* Steps 1 and 2 on the host: the data layout and the identity layout, divided
 * by the same tiler.  The identity's basis strides become two integer layouts
 * (coord_component): its m and its n. */
static tiling make_tiling(int M, int N, int ld, int bm, int bn)
{
  tiling t;
  lt_val st[2] = { lt_static(1), lt_int(ld) };
  lt_val tl[2] = { lt_static(bm), lt_static(bn) };
  lt_val tiler = lt_tuple_of(2, tl);
  lt_layout mA = lt_make_layout_sd(pair(M, N), lt_tuple_of(2, st)); // (M,N):(_1,ld)
  lt_layout cA = lt_identity_layout(pair(M, N));              // (M,N):(_1@0,_1@1)
  lt_layout zd = lt_zipped_divide(mA, tiler), zc = lt_zipped_divide(cA, tiler);
  lt_layout zm = coord_component(zc, 0), zn = coord_component(zc, 1);
  t.data = device_form(&zd);
  t.crd_m = device_form(&zm);
  t.crd_n = device_form(&zn);
  t.M = M; t.N = N;
  return t;
}
// ANCHOR_END: make_tiling

static int tiles_of(const tiling *t) { return ltd_mode_size(&t->data, 1); }

/* The allocation: guard | column 0 (ld rows) | ... | column N-1 | guard.  The guard after the
 * matrix is as large as the farthest a tile can overhang it: BLK_N columns and BLK_M rows. */
typedef struct guarded { long long guard, total; int M, N, ld; } guarded;

static guarded guarded_shape(int M, int N, int ld)
{
  guarded g = { (long long)BLK_N * ld + BLK_M, 0, M, N, ld };
  g.total = 2 * g.guard + (long long)ld * N;
  return g;
}

// ANCHOR: verify
/* Every element of the allocation: inside the matrix it must be alpha * value,
 * anywhere else (before, after, the padding rows of every column) it must
 * still be poison.  Returns the number of wrong elements and prints the first
 * of each kind. */
static long long verify(const float *alloc, guarded g, const char *what)
{
  long long bad_in = 0, bad_guard = 0, first_in = -1, first_guard = -1;
  for (long long k = 0; k < g.total; ++k) {
    long long o = k - g.guard;
    unsigned bits;
    memcpy(&bits, &alloc[k], 4);
    int inside = o >= 0 && o < (long long)g.ld * g.N && (int)(o % g.ld) < g.M;
    if (inside) {
      float want = ALPHA * value_at(o);
      if (memcmp(&want, &alloc[k], 4) != 0) {
        if (first_in < 0) first_in = o;
        bad_in++;
      }
    } else if (bits != POISON) {
      if (first_guard < 0) first_guard = o;
      bad_guard++;
    }
  }
  if (bad_guard) {
    long long o = first_guard;
    const char *where = o < 0 ? "before the matrix"
                      : o >= (long long)g.ld * g.N ? "after the matrix"
                      : "in the padding between columns";
    printf("FAIL guard band (%s, %d x %d, ld %d): %lld elements written "
           "outside the matrix; first at offset %lld (%s",
           what, g.M, g.N, g.ld, bad_guard, o, where);
    if (o >= 0) printf(", row %lld of column %lld", o % g.ld, o / g.ld);
    printf(")\n");
  }
  if (bad_in)
    printf("FAIL %s, %d x %d, ld %d: %lld elements wrong; "
           "first at row %lld, column %lld\n",
           what, g.M, g.N, g.ld, bad_in, first_in % g.ld, first_in / g.ld);
  return bad_in + bad_guard;
}
// ANCHOR_END: verify

static float *host_source(guarded g)
{
  float *a = (float *)LK_MALLOC(sizeof(float) * (size_t)g.total);
  for (long long k = 0; k < g.total; ++k) {
    long long o = k - g.guard;
    float v = value_at(o);
    int inside = o >= 0 && o < (long long)g.ld * g.N && (int)(o % g.ld) < g.M;
    unsigned bits = SRC_POISON;
    if (inside) a[k] = v; else memcpy(&a[k], &bits, 4);
  }
  return a;
}

// ANCHOR: host_run
/* The host run: the kernel's thread code for every CTA and every thread of
 * the 41 x 55 example (tile (_4,_8), threads (_2,_4)), into a guarded,
 * poisoned buffer, then verified.  The guard after the matrix (BLK_N columns
 * and BLK_M rows) is far larger than this tile can overhang. */
static int host_run(void)
{
  const int M = EX_M, N = EX_N, ld = EX_M;
  const int bm = EX_BM, bn = EX_BN, tm = EX_TM, tn = EX_TN;
  guarded g = guarded_shape(M, N, ld);
  float *src = host_source(g);
  float *dst = (float *)LK_MALLOC(sizeof(float) * (size_t)g.total);
  unsigned poison = POISON;
  for (long long k = 0; k < g.total; ++k) memcpy(&dst[k], &poison, 4);
  tiling t = make_tiling(M, N, ld, bm, bn);
  for (int cta = 0; cta < tiles_of(&t); ++cta)     // the grid: every tile
    for (int tid = 0; tid < tm * tn; ++tid)        // the CTA: every thread
      copy_scale_thread(src + g.guard, dst + g.guard, ALPHA, &t,
                        cta, tid, bm, bn, tm, tn, 1);
  long long bad = verify(dst, g, "copy_scale host run");
  printf("%s copy_scale host run: %d x %d in (_%d,_%d) tiles, "
         "%d CTAs of %d threads\n"
         "     (every element and the guard band checked)\n",
         bad ? "FAIL" : "PASS", M, N, bm, bn, tiles_of(&t), tm * tn);

  /* the reduction over k, on the same matrix: row_sum_thread, 4 rows a CTA */
  float *y = (float *)LK_MALLOC(sizeof(float) * M);
  int rbad = 0;
  if (!row_sum_supports(N)) {
    printf("note row_sum host run: K = %d is not a multiple of BLK_K = %d;\n"
           "     this version does not handle the k residue (exercise 2)\n",
           N, BLK_K);
  } else {
    for (int cta = 0; cta < (M + 3) / 4; ++cta)
      for (int tid = 0; tid < 4; ++tid)
        row_sum_thread(src + g.guard, y, M, N, ld, cta, tid, 4, BLK_K);
    for (int m = 0; m < M; ++m) {
      float want = 0.0f;
      for (int k = 0; k < N; ++k) want += value_at(m + (long long)k * ld);
      if (!(y[m] == want)) {
        if (!rbad) printf("FAIL row_sum host run: row %d is %g, want %g\n",
                          m, y[m], want);
        rbad++;
      }
    }
    printf("%s row_sum host run: %d x %d, k tiles of %d, the last one %d wide: "
           "every row checked\n",
           rbad ? "FAIL" : "PASS", M, N, BLK_K, N % BLK_K ? N % BLK_K : BLK_K);
  }
  free(src); free(dst); free(y);
  return (bad != 0) + (rbad != 0);
}
// ANCHOR_END: host_run

/* ------------------------------------------------------------------------------------------------
 * Host: device checks
 * ---------------------------------------------------------------------------------------------- */

typedef struct device_bufs { float *src, *dst, *host; long long cap; } device_bufs;

// ANCHOR: launch
/* One shape on the device: fill, poison, run, bring back, verify every
 * element.  The grid has one CTA per tile: tiles_of(&t), the size of the rest
 * mode, is ceil(M/BLK_M) * ceil(N/BLK_N). */
static long long check_shape(device_bufs *b, int M, int N, int ld,
                             int predicated)
{
  guarded g = guarded_shape(M, N, ld);
  if (g.total > b->cap) {
    printf("FAIL internal: %d x %d does not fit the buffers\n", M, N);
    return 1;
  }
  tiling t = make_tiling(M, N, ld, BLK_M, BLK_N);
  fill_source<<<1024, 256>>>(b->src, g.guard, M, ld, g.total);
  LK_LAUNCH();
  LK_CHECK(cudaMemset(b->dst, 0xff, sizeof(float) * (size_t)g.total));
  float *src = b->src + g.guard, *dst = b->dst + g.guard;
  if (predicated)
    copy_scale_predicated<<<tiles_of(&t), THREADS>>>(src, dst, ALPHA, t);
  else
    copy_scale_unpredicated<<<tiles_of(&t), THREADS>>>(src, dst, ALPHA, t);
  LK_LAUNCH();
  LK_CHECK(cudaMemcpy(b->host, b->dst, sizeof(float) * (size_t)g.total,
                      cudaMemcpyDeviceToHost));
  return verify(b->host, g,
                predicated ? "copy_scale_predicated" : "copy_scale_unpredicated");
}
// ANCHOR_END: launch

/* A dimension from 1 to 5000, spread evenly over the orders of magnitude. */
static int random_dim(uint64_t *s)
{
  double u = (double)(lk_rand64(s) >> 11) / 9007199254740992.0;
  int d = (int)floor(exp(u * log(5001.0)));
  return d < 1 ? 1 : d > 5000 ? 5000 : d;
}

// ANCHOR: device_checks
static int device_checks(void)
{
  device_bufs b;
  b.cap = guarded_shape(5000, 5000, 5000 + 128).total;
  LK_CHECK(cudaMalloc(&b.src, sizeof(float) * (size_t)b.cap));
  LK_CHECK(cudaMalloc(&b.dst, sizeof(float) * (size_t)b.cap));
  LK_CHECK(cudaMallocHost(&b.host, sizeof(float) * (size_t)b.cap));
  int fails = 0;

  /* 41 x 55 first, its picture: which CTA tile is ragged */
  long long bad = check_shape(&b, EX_M, EX_N, EX_M, 1);
  printf("%s copy_scale_predicated 41 x 55 (ld 41): "
         "every element and the guard band checked\n", bad ? "FAIL" : "PASS");
  fails += bad != 0;

  /* fixed edge shapes, then random ones; every other shape with ld > M */
  static const int fixed[][2] = {
    {1,1}, {1,5000}, {5000,1}, {1,2}, {2,1}, {127,33}, {128,32}, {129,31},
    {4999,4999}, {4096,4096}, {4093,4091}, {3,5000}, {5000,3}, {256,1}, {1,256} };
  const int nfixed = (int)(sizeof fixed / sizeof fixed[0]), nrandom = 200;
  uint64_t s = 5;
  int shapes = 0, padded = 0, bad_shapes = 0;
  for (int k = 0; k < nfixed + nrandom; ++k) {
    int M, N;
    if (k < nfixed) { M = fixed[k][0]; N = fixed[k][1]; }
    else if (k % 10 == 0) { M = 1; N = random_dim(&s); }
    else if (k % 10 == 5) { M = random_dim(&s); N = 1; }
    else { M = random_dim(&s); N = random_dim(&s); }
    int ld = M;
    if (k % 2) {                   // ld > M: padding rows to guard
      ld = M + 1 + (int)(lk_rand64(&s) % 96);
      padded++;
    }
    long long r = check_shape(&b, M, N, ld, 1);
    shapes++;
    if (r) {                       // the first few failures suffice
      bad_shapes++;
      if (bad_shapes >= 3) break;
    }
  }
  printf("%s copy_scale_predicated: %d shapes from 1 x 1 to 5000 x 5000 "
         "(%d with ld > M): every element and the guard band checked\n",
         bad_shapes ? "FAIL" : "PASS", shapes, padded);
  fails += bad_shapes != 0;

  /* the unpredicated kernel, where the tile divides the matrix */
  bad = check_shape(&b, 4096, 1024, 4096, 0);
  printf("%s copy_scale_unpredicated 4096 x 1024 (tiles divide it): "
         "every element and the guard band checked\n", bad ? "FAIL" : "PASS");
  fails += bad != 0;

  /* the reduction, on a K that BLK_K divides */
  {
    const int M = 1000, K = 64, ld = 1003;
    guarded g = guarded_shape(M, K, ld);
    float *y, hy[1000];
    LK_CHECK(cudaMalloc(&y, sizeof(float) * M));
    fill_source<<<1024, 256>>>(b.src, g.guard, M, ld, g.total);
    LK_LAUNCH();
    int rbad = 0;
    if (row_sum_supports(K)) {
      row_sum<<<(M + BLK_M - 1) / BLK_M, BLK_M>>>(b.src + g.guard, y, M, K, ld);
      LK_LAUNCH();
      LK_CHECK(cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost));
      for (int m = 0; m < M; ++m) {
        float want = 0.0f;
        for (int k = 0; k < K; ++k) want += value_at(m + (long long)k * ld);
        if (!(hy[m] == want)) {
          if (!rbad) printf("FAIL row_sum: row %d is %g, want %g\n",
                            m, hy[m], want);
          rbad++;
        }
      }
      printf("%s row_sum %d x %d (ld %d): every row checked\n",
             rbad ? "FAIL" : "PASS", M, K, ld);
    }
    fails += rbad != 0;
    LK_CHECK(cudaFree(y));
  }
  LK_CHECK(cudaFree(b.src)); LK_CHECK(cudaFree(b.dst));
  LK_CHECK(cudaFreeHost(b.host));
  return fails;
}
// ANCHOR_END: device_checks

/* ------------------------------------------------------------------------------------------------
 * Host: timing
 * ---------------------------------------------------------------------------------------------- */

typedef struct time_ctx { const float *src; float *dst; tiling t; size_t bytes; int which; } time_ctx;

static void run_timed(void *p)
{
  time_ctx *c = (time_ctx *)p;
  if (c->which == 0) LK_CHECK(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, 0));
  else if (c->which == 1) { copy_scale_unpredicated<<<tiles_of(&c->t), THREADS>>>(c->src, c->dst, ALPHA, c->t); LK_LAUNCH(); }
  else { copy_scale_predicated<<<tiles_of(&c->t), THREADS>>>(c->src, c->dst, ALPHA, c->t); LK_LAUNCH(); }
}

// ANCHOR: timing
/* Four runs, each against cudaMemcpy of the same bytes: the divisible size without and with
 * predicates, the ragged size (one less in each dimension) with ld = M, and with ld padded. */
static void time_all(int quick, FILE *data)
{
  const int D = quick ? 2048 : 8192, R = D - 1;
  struct { const char *name; int M, N, ld, which; } run[4] = {
    { "unpredicated",  D, D, D, 1 },
    { "predicated",    D, D, D, 2 },
    { "predicated",    R, R, R, 2 },
    { "predicated",    R, R, D, 2 },
  };
  float *src, *dst;
  size_t cap = sizeof(float) * (size_t)D * D;
  LK_CHECK(cudaMalloc(&src, cap));
  LK_CHECK(cudaMalloc(&dst, cap));
  LK_CHECK(cudaMemset(src, 0, cap));
  lk_timing opt = lk_timing_default();
  char dev[512];
  lk_device_stamp(dev, sizeof dev);
  printf("bench: device %s\n", dev);
  for (int r = 0; r < 4; ++r) {
    time_ctx c = { src, dst, make_tiling(run[r].M, run[r].N, run[r].ld, BLK_M, BLK_N), 0, 0 };
    c.bytes = sizeof(float) * ((size_t)run[r].ld * (run[r].N - 1) + run[r].M);   // what the matrix spans
    double mem = lk_time_ms(run_timed, &c, &opt);
    c.which = run[r].which;
    double ms = lk_time_ms(run_timed, &c, &opt);
    double gbs = 2.0 * sizeof(float) * run[r].M * (double)run[r].N / (ms * 1e-3) / 1e9;
    printf("bench: %-13s %5d x %-5d ld %-5d %8.3f ms %7.1f GB/s  %.3f of cudaMemcpy\n",
           run[r].name, run[r].M, run[r].N, run[r].ld, ms, gbs, mem / ms);
    if (data) fprintf(data, "\"%s %dx%d ld %d\" %.1f %.4f\n", run[r].name, run[r].M, run[r].N, run[r].ld, gbs, mem / ms);
  }
  LK_CHECK(cudaFree(src)); LK_CHECK(cudaFree(dst));
}
// ANCHOR_END: timing

/* ------------------------------------------------------------------------------------------------
 * main
 * ---------------------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
  lk_args a = { argc, argv, "usage: 05_predication [--data DIR] [--quick] [--check-only]\n" };
  const char *known[] = { "--data=", "--quick", "--check-only", NULL };
  lk_args_check(&a, known);
  const char *dir = lk_arg_dir(&a, "--data");

  if (DROPPED_PREDICATE) printf("note: built with a predicate taken away (DROP_PREDICATE_M/N): the checks must fail\n");
  rounds_up();
  example_41x55();
  int fails = host_run();
  if (!lk_device_present()) return fails ? 1 : 0;

  FILE *bw = dir ? lk_data_open(dir, "05_cost.dat", "version GB/s ratio-to-cudaMemcpy (copy-and-scale, fp32)", 1) : NULL;
  fails += device_checks();
  if (!fails && !lk_arg_flag(&a, "--check-only")) time_all(lk_arg_flag(&a, "--quick"), bw);
  if (bw) fclose(bw);
  printf("%s\n", fails ? "FAIL" : "PASS: every element right, every guard band untouched");
  return fails ? 1 : 0;
}
