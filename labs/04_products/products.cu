/* Lab 04 -- products: blocked and raked products, and the thread-value layouts they build.
 *
 * What it shows
 *   1. the host algebra: the seed's logical, blocked and raked products computed by the library,
 *      with static and with dynamic integers, and the four regroupings of one logical product;
 *   2. three ways to hand a 64x64 fp32 tile to 256 threads, 16 elements each, each built with a
 *      product: blocked (each thread a contiguous 4x4 block), raked with values of 1 (neighbouring
 *      threads take neighbouring elements) and raked with values of 4 (each thread a contiguous
 *      vector of 4, threads side by side -- how CuTe builds a tiled copy).  Each product maps an
 *      element of the tile to a code that names its thread and its value; its right inverse gives
 *      the thread-value (TV) layout (thread, value) -> element, and an 8x8 case is printed;
 *   3. on the GPU, every thread evaluates its TV layout and writes (thread, value) into each
 *      element it owns; the host predicts every element from the product alone and compares;
 *   4. a 1 GiB tiled copy, 64x64 tiles, with each assignment, with 4-byte accesses and, where the
 *      layout allows, 16-byte (float4) accesses, timed against cudaMemcpy device-to-device.
 *
 * Build and run
 *   make run LAB=04                      (or: make build/bin/04_products && build/bin/04_products)
 *   build/bin/04_products --data DIR     also write the figures' data into DIR
 *   build/bin/04_products --quick        a 64 MiB copy instead of 1 GiB
 *   build/bin/04_products --check-only   verify, do not time (for compute-sanitizer)
 *
 * What it prints
 *   the host algebra (deterministic: the chapter includes it), PASS/FAIL for each device check,
 *   then `bench:` lines.  Without a GPU: the host part and "no CUDA device: skipping the device
 *   part".  It exits non-zero on any FAIL.
 */
#include "layout.h"
#include "layout_device.h"
#include "labkit.h"

/* ------------------------------------------------------------------------------------------------
 * Host algebra
 * ---------------------------------------------------------------------------------------------- */

static int64_t ival(lt_val v) { return lt_value(&v); }

static void show(const char *cute, lt_layout r)
{
  printf("  %-58s -> %s\n", cute, lt_ok(&r) ? lt_str(&r) : lt_error(&r));
}

typedef lt_layout (*product_fn)(lt_layout, lt_layout);
static lt_layout logical(lt_layout a, lt_layout b) { return lt_logical_product(a, b); }

/* Print op(a, b) for the seed's arguments: the call as written and the library's result. */
static void example(const char *op, product_fn fn, const char *a, const char *b)
{
  char call[160];
  snprintf(call, sizeof call, "%s(%s, %s)", op, a, b);
  show(call, fn(P(a), P(b)));
}

// ANCHOR: seed_examples
static void seed_examples(void)
{
  printf("logical products of one layout (the seed's 1-D examples):\n");
  example("logical_product", logical, "(_2,_2):(_4,_1)", "_6:_1");
  example("logical_product", logical, "(_2,_2):(_4,_1)", "_6:_2");
  example("logical_product", logical, "(_2,_2):(_4,_1)", "(_4,_2):(_2,_1)");
  example("logical_product", logical, "(_2,_2):(_4,_1)", "(_4,_2):(_1,_4)");
  printf("the 2-D example: A = (_2,_5):(_5,_1) repeated 3 times along mode 0, 4 along mode 1:\n");
  example("logical_product", logical, "(_2,_5):(_5,_1)", "(_3:_5,_4:_6)");
  example("blocked_product", lt_blocked_product, "(_2,_5):(_5,_1)", "(_3,_4):(_1,_3)");
  example("raked_product", lt_raked_product, "(_2,_5):(_5,_1)", "(_3,_4):(_1,_3)");
  printf("the same with dynamic integers:\n");
  example("logical_product", logical, "(2,2):(4,1)", "6:1");
  example("logical_product", logical, "(2,2):(_4,_1)", "6:1");
  example("logical_product", logical, "(2,2):(_4,_1)", "6:2");
  example("logical_product", logical, "(2,5):(5,1)", "(3:5,4:6)");
  example("blocked_product", lt_blocked_product, "(2,5):(_5,_1)", "(3,4):(1,3)");
  example("raked_product", lt_raked_product, "(2,5):(_5,_1)", "(3,4):(1,3)");
}
// ANCHOR_END: seed_examples

// ANCHOR: regroup
/* One logical product, four groupings of the same modes (as the divides have). */
static void regroupings(void)
{
  lt_layout a = P("(_2,_5):(_5,_1)");
  lt_val b = P("(_3,_4):(_1,_3)");
  printf("one product, regrouped (A = (_2,_5):(_5,_1), B = (_3,_4):(_1,_3)):\n");
  show("logical_product(A, B)", lt_logical_product(a, b));
  show("zipped_product(A, B)", lt_zipped_product(a, b));
  show("tiled_product(A, B)", lt_tiled_product(a, b));
  show("flat_product(A, B)", lt_flat_product(a, b));
  show("blocked_product(A, _3:_1)   (rank 2 with rank 1)", lt_blocked_product(a, P("_3:_1")));
  show("raked_product(_4:_1, B)     (rank 1 with rank 2)", lt_raked_product(P("_4:_1"), b));
}
// ANCHOR_END: regroup

// ANCHOR: assignment
/* An assignment of a tile's elements to threads, built with a product.  The product maps an
 * element (m,n) of the tile to a code that names its owner; which layout is the product's A
 * decides how the code reads:
 *   VALUES_FIRST:  product(val, thr) -- a copy of the value layout for every thread; with
 *                  blocked_product the copies sit side by side.  code = v + V*t.
 *   THREADS_FIRST: blocked_product(product(thr, val), rep) -- a copy of the thread layout for
 *                  every value; with raked_product (CuTe's make_tiled_copy) the copies are
 *                  interleaved, so each thread's values sit together; rep repeats the result
 *                  over the tile.  code = t + T*v.
 * thr maps a thread coordinate to the thread id, val a value coordinate to the value index. */
enum { THREADS_FIRST = 0, VALUES_FIRST = 1 };

typedef struct assignment {
  const char *name;
  lt_layout (*product)(lt_layout, lt_layout);   /* lt_blocked_product or lt_raked_product */
  int order;                                      /* VALUES_FIRST or THREADS_FIRST */
  const char *thr, *val, *rep;
} assignment;

static lt_layout owner_product(const assignment *s)
{
  if (s->order == VALUES_FIRST) return s->product(P(s->val), P(s->thr));
  return lt_blocked_product(s->product(P(s->thr), P(s->val)), P(s->rep));
}

/* The code of an element, split into (thread, value). */
static void decode(const assignment *s, int64_t code, int64_t T, int64_t V, int *t, int *v)
{
  if (s->order == VALUES_FIRST) { *t = (int)(code / V); *v = (int)(code % V); }
  else                          { *t = (int)(code % T); *v = (int)(code / T); }
}

/* The TV layout (thread, value) -> element index of the tile, m + rows*n: the right inverse of
 * the product sends a code back to its element, and the code is reshaped to (thread, value). */
static lt_layout tv_layout(const assignment *s, lt_layout product, int64_t T, int64_t V)
{
  lt_val tv[2] = { lt_static(T), lt_static(V) };
  lt_layout code = s->order == VALUES_FIRST ? lt_make_layout_right(lt_tuple_of(2, tv))  /* (t,v) -> v + V*t */
                                            : lt_make_layout(lt_tuple_of(2, tv));       /* (t,v) -> t + T*v */
  return lt_composition(lt_right_inverse(product), code);
}
// ANCHOR_END: assignment

#define THREADS 256
#define VALS    16          /* 64*64 / 256 elements per thread */
#define TILE    64

// ANCHOR: tile_table
static const assignment tile_assignments[3] = {
  { "blocked 4x4",  lt_blocked_product, VALUES_FIRST,  "(_16,_16):(_1,_16)", "(_4,_4):(_1,_4)", NULL },
  { "raked, val 1", lt_raked_product,  THREADS_FIRST, "(_64,_4):(_1,_64)",  "(_1,_1):(_0,_0)", "(_1,_16):(_0,_1)" },
  { "raked, val 4", lt_raked_product,  THREADS_FIRST, "(_16,_16):(_1,_16)", "(_4,_1):(_1,_0)", "(_1,_4):(_0,_1)" },
};

/* The same three, scaled down to an 8x8 tile and 16 threads of 4 values, to print in full. */
static const assignment small_assignments[3] = {
  { "blocked 2x2",  lt_blocked_product, VALUES_FIRST,  "(_4,_4):(_1,_4)", "(_2,_2):(_1,_2)", NULL },
  { "raked, val 1", lt_raked_product,  THREADS_FIRST, "(_8,_2):(_1,_8)", "(_1,_1):(_0,_0)", "(_1,_4):(_0,_1)" },
  { "raked, val 4", lt_raked_product,  THREADS_FIRST, "(_2,_8):(_1,_2)", "(_4,_1):(_1,_0)", "(_1,_1):(_0,_0)" },
};

// ANCHOR_END: tile_table

/* How many elements at the start of each thread's value list are contiguous in memory: the
 * vector width a copy may use (1, 2 or 4 floats), if every vector start is aligned to it. */
static int vector_width(lt_layout tv)
{
  lt_layout vm = lt_coalesce(lt_get(tv, 1));
  lt_val s = lt_shape(vm), d = lt_stride(vm);
  lt_val s0 = lt_is_tuple(&s) ? lt_get(s, 0) : s, d0 = lt_is_tuple(&d) ? lt_get(d, 0) : d;
  if (ival(d0) != 1) return 1;
  int w = 1;
  while (w < 4 && ival(s0) % (2 * w) == 0) w *= 2;
  return w;
}

// ANCHOR: print_owners
/* The inverse mapping, printed: which thread and which value own element (m, n). */
static void print_owners(const assignment *s, int rows, int cols)
{
  lt_layout prod = owner_product(s);
  int64_t T = ival(lt_size(P(s->thr))), V = (int64_t)rows * cols / T;
  lt_layout tv = tv_layout(s, prod, T, V);
  printf("%s: product %s\n", s->name, lt_str(&prod));
  printf("  tv layout (thread,value) -> m + %d*n: %s\n", rows, lt_str(&tv));
  printf("  owner of (m,n) as thread.value:\n");
  for (int m = 0; m < rows; ++m) {
    printf("   ");
    for (int n = 0; n < cols; ++n) {
      int t, v;
      decode(s, ival(lt_crd2idx(prod, lt_int(m + (int64_t)rows * n))), T, V, &t, &v);
      printf(" %2d.%-2d", t, v);
    }
    printf("\n");
  }
}
// ANCHOR_END: print_owners

static void tile_assignments_host(void)
{
  printf("\nthe 8x8 case: 16 threads, 4 values each\n");
  for (int k = 0; k < 3; ++k) print_owners(&small_assignments[k], 8, 8);
  printf("\nthe 64x64 tile of fp32: 256 threads, 16 values each\n");
  for (int k = 0; k < 3; ++k) {
    const assignment *s = &tile_assignments[k];
    lt_layout prod = owner_product(s), tv = tv_layout(s, prod, THREADS, VALS);
    printf("%s: product %s\n", s->name, lt_str(&prod));
    printf("  tv layout %s, contiguous run %d\n", lt_str(&tv), vector_width(tv));
  }
}

// ANCHOR: exercises
/* Exercise 1: a 64x64 tile of bf16 (2 bytes), 256 threads, 16-byte accesses: each thread should
 * own contiguous vectors of 8 elements, threads side by side.  (Shipped: the fp32 parameters.) */
static const assignment bf16_vectors = { "bf16 vectors", lt_raked_product, THREADS_FIRST,
                                         "(_16,_16):(_1,_16)", "(_4,_1):(_1,_0)", "(_1,_4):(_0,_1)" };

/* Exercise 2: the blocked assignment of the 64x64 tile, but interleaved: for every value index
 * the 256 threads should cover a contiguous 16x16 square (thread (t0,t1) at (t0,t1)). */
static const assignment interleaved = { "interleaved", lt_blocked_product, VALUES_FIRST,
                                        "(_16,_16):(_1,_16)", "(_4,_4):(_1,_4)", NULL };

/* Exercise 3: the tiler that makes the by-mode logical product equal the blocked product. */
static const char *ex3_block = "(_2,_3):(_3,_1)", *ex3_tiler = "(_2,_4)", *ex3_repeat = "(_2,_4):(_1,_2)";

static void exercises(void)
{
  printf("\nexercises:\n");
  lt_layout p1 = owner_product(&bf16_vectors), tv1 = tv_layout(&bf16_vectors, p1, THREADS, VALS);
  printf("ex1 bf16 tv: %s\n", lt_str(&tv1));
  lt_layout p2 = owner_product(&interleaved), tv2 = tv_layout(&interleaved, p2, THREADS, VALS);
  printf("ex2 interleaved tv: %s\n", lt_str(&tv2));
  lt_layout l3 = lt_logical_product(P(ex3_block), P(ex3_tiler));
  lt_layout b3 = lt_blocked_product(P(ex3_block), P(ex3_repeat));
  printf("ex3 logical_product(%s, %s): %s\n", ex3_block, ex3_tiler, lt_str(&l3));
  printf("ex3 blocked_product(%s, %s): %s\n", ex3_block, ex3_repeat, lt_str(&b3));
}
// ANCHOR_END: exercises

/* ------------------------------------------------------------------------------------------------
 * GPU kernels
 * ---------------------------------------------------------------------------------------------- */

// ANCHOR: own_kernel
/* One CTA, one tile, one thread per TV thread: thread t writes (t, v) into element tv(t, v). */
__global__ void own_tv(int *thr_out, int *val_out, ltd_layout tv)
{
  int t = threadIdx.x;
  int base = ltd_mode(&tv, 0, t);                     // the thread's first element
  int n = ltd_mode_size(&tv, 1);
  for (int v = 0; v < n; ++v) {
    int e = base + ltd_mode(&tv, 1, v);
    thr_out[e] = t;
    val_out[e] = v;
  }
}
// ANCHOR_END: own_kernel

// ANCHOR: copy_kernels
/* A tiled copy: dz = zipped_divide(matrix, (_64,_64)) gives tile k at ltd_mode(&dz, 1, k); tv is
 * the TV layout composed with the matrix, (thread, value) -> offset inside a tile.  The CTAs
 * stride over the tiles, so each thread evaluates its offsets once: tv's shapes are run-time
 * values, and its divisions would cost more than the copy if done per tile.  VALS is a constant,
 * so the loops unroll and off[] lives in registers (ptxas: 0 bytes stack frame). */
__global__ void __launch_bounds__(THREADS) copy_scalar(const float *__restrict__ src, float *__restrict__ dst,
                                                       ltd_layout dz, ltd_layout tv, int tiles)
{
  int off[VALS];
  int t0 = ltd_mode(&tv, 0, threadIdx.x);
#pragma unroll
  for (int v = 0; v < VALS; ++v) off[v] = t0 + ltd_mode(&tv, 1, v);
  for (int k = blockIdx.x; k < tiles; k += gridDim.x) {
    const float *s = src + ltd_mode(&dz, 1, k);
    float *d = dst + ltd_mode(&dz, 1, k);
    float r[VALS];
#pragma unroll
    for (int v = 0; v < VALS; ++v) r[v] = s[off[v]];       // LDG.E: one float per instruction
#pragma unroll
    for (int v = 0; v < VALS; ++v) d[off[v]] = r[v];
  }
}

/* The same with float4: values 4j..4j+3 of a thread are contiguous (the host checked that the
 * layout says so, and that every vector starts at a multiple of 4 floats). */
__global__ void __launch_bounds__(THREADS) copy_vec4(const float *__restrict__ src, float *__restrict__ dst,
                                                     ltd_layout dz, ltd_layout tv, int tiles)
{
  int off[VALS / 4];
  int t0 = ltd_mode(&tv, 0, threadIdx.x);
#pragma unroll
  for (int j = 0; j < VALS / 4; ++j) off[j] = t0 + ltd_mode(&tv, 1, 4 * j);
  for (int k = blockIdx.x; k < tiles; k += gridDim.x) {
    const float *s = src + ltd_mode(&dz, 1, k);
    float *d = dst + ltd_mode(&dz, 1, k);
    float4 r[VALS / 4];
#pragma unroll
    for (int j = 0; j < VALS / 4; ++j) r[j] = *(const float4 *)(s + off[j]);   // LDG.E.128
#pragma unroll
    for (int j = 0; j < VALS / 4; ++j) *(float4 *)(d + off[j]) = r[j];
  }
}
// ANCHOR_END: copy_kernels

/* ------------------------------------------------------------------------------------------------
 * Host: prediction and verification
 * ---------------------------------------------------------------------------------------------- */

static ltd_layout device_form(const lt_layout *l)
{
  ltd_layout d;
  char err[256];
  if (ltd_from_layout(l, &d, err, sizeof err) != 0) { fprintf(stderr, "device form: %s\n", err); exit(1); }
  return d;
}

// ANCHOR: predict
/* From the product alone: element i = m + 64*n has code product(i), which names its owner.
 * The device used the other direction (the TV layout, via right_inverse), so they check each other. */
static void predict_owners(const assignment *s, int *want_t, int *want_v)
{
  lt_layout prod = owner_product(s);
  for (int i = 0; i < TILE * TILE; ++i)
    decode(s, ival(lt_crd2idx(prod, lt_int(i))), THREADS, VALS, &want_t[i], &want_v[i]);
}
// ANCHOR_END: predict

static int check_owners(const assignment *s)
{
  const int n = TILE * TILE;
  int *want_t = (int *)LK_MALLOC(sizeof(int) * n), *want_v = (int *)LK_MALLOC(sizeof(int) * n);
  int *got_t = (int *)LK_MALLOC(sizeof(int) * n), *got_v = (int *)LK_MALLOC(sizeof(int) * n), *dt, *dv;
  predict_owners(s, want_t, want_v);
  lt_layout tv = tv_layout(s, owner_product(s), THREADS, VALS);
  LK_CHECK(cudaMalloc(&dt, sizeof(int) * n));
  LK_CHECK(cudaMalloc(&dv, sizeof(int) * n));
  lk_poison(dt, sizeof(int) * n);
  lk_poison(dv, sizeof(int) * n);
  own_tv<<<1, THREADS>>>(dt, dv, device_form(&tv));
  LK_LAUNCH();
  LK_CHECK(cudaMemcpy(got_t, dt, sizeof(int) * n, cudaMemcpyDeviceToHost));
  LK_CHECK(cudaMemcpy(got_v, dv, sizeof(int) * n, cudaMemcpyDeviceToHost));
  size_t bad = lk_compare_int(got_t, want_t, n, "thread") + lk_compare_int(got_v, want_v, n, "value");
  printf("%s own_tv, %s: the thread and value of every element of the 64x64 tile as the product predicts\n",
         bad ? "FAIL" : "PASS", s->name);
  LK_CHECK(cudaFree(dt)); LK_CHECK(cudaFree(dv));
  free(want_t); free(want_v); free(got_t); free(got_v);
  return bad != 0;
}

/* ------------------------------------------------------------------------------------------------
 * Host: the copies, measured
 * ---------------------------------------------------------------------------------------------- */

#define VERSIONS 7
typedef struct copy_ctx {
  const float *src; float *dst; size_t bytes;
  ltd_layout dz, tv[3]; int width[3]; int tiles, grid, which;
} copy_ctx;

/* version 0 is cudaMemcpy; then (assignment, access) pairs */
static const char *version_names[VERSIONS] = { "cudaMemcpy", "blocked 4x4, 4 B", "blocked 4x4, 16 B",
  "raked val 1, 4 B", "raked val 1, 16 B", "raked val 4, 4 B", "raked val 4, 16 B" };

static void run_copy(void *p)
{
  copy_ctx *c = (copy_ctx *)p;
  if (c->which == 0) { LK_CHECK(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, 0)); return; }
  int a = (c->which - 1) / 2, vec = (c->which - 1) % 2;
  if (vec) copy_vec4<<<c->grid, THREADS>>>(c->src, c->dst, c->dz, c->tv[a], c->tiles);
  else copy_scalar<<<c->grid, THREADS>>>(c->src, c->dst, c->dz, c->tv[a], c->tiles);
  LK_LAUNCH();
}

// ANCHOR: copy_host
static int compare_copies(int quick, int check_only, FILE *data)
{
  const int M = 16384, N = quick ? 1024 : 16384;          /* fp32, column-major: 1 GiB */
  const size_t n = (size_t)M * N, bytes = n * sizeof(float);
  lt_val shp[2] = { lt_int(M), lt_int(N) }, st[2] = { lt_static(1), lt_int(M) };
  lt_layout mA = lt_make_layout_sd(lt_tuple_of(2, shp), lt_tuple_of(2, st));
  lt_layout dz = lt_zipped_divide(mA, P("(_64,_64)"));     /* ((_64,_64),(256,N/64)):((_1,M),(_64,64*M)) */
  lt_layout tile = lt_get(dz, 0);                          /* one tile of the matrix: (_64,_64):(_1,M) */
  copy_ctx c;
  memset(&c, 0, sizeof c);
  c.bytes = bytes; c.dz = device_form(&dz); c.tiles = (int)(n / (TILE * TILE));
  for (int a = 0; a < 3; ++a) {
    const assignment *s = &tile_assignments[a];
    lt_layout tv = lt_composition(tile, tv_layout(s, owner_product(s), THREADS, VALS));
    c.tv[a] = device_form(&tv);
    c.width[a] = vector_width(tv);
    printf("%s on the matrix: tv %s, vector width %d\n", s->name, lt_str(&tv), c.width[a]);
  }
  int dev = 0, sms = 0, per_sm = 0;
  LK_CHECK(cudaGetDevice(&dev));
  LK_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  LK_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, copy_scalar, THREADS, 0));
  c.grid = sms * per_sm < c.tiles ? sms * per_sm : c.tiles;   /* one wave of CTAs, striding */
  float *h = (float *)LK_MALLOC(bytes), *back = (float *)LK_MALLOC(bytes), *src, *dst;
  lk_fill_random(h, n, 404);
  LK_CHECK(cudaMalloc(&src, bytes));
  LK_CHECK(cudaMalloc(&dst, bytes));
  LK_CHECK(cudaMemcpy(src, h, bytes, cudaMemcpyHostToDevice));
  c.src = src; c.dst = dst;
  int fails = 0, ok[VERSIONS] = { 1 };
  for (int w = 1; w < VERSIONS; ++w) {
    int a = (w - 1) / 2, vec = (w - 1) % 2;
    if (vec && c.width[a] < 4) { printf("skip copy, %s: the layout gives no 4 contiguous floats\n", version_names[w]); continue; }
    lk_poison(dst, bytes);
    c.which = w;
    run_copy(&c);
    LK_CHECK(cudaMemcpy(back, dst, bytes, cudaMemcpyDeviceToHost));
    size_t bad = memcmp(back, h, bytes) ? lk_compare_float(back, h, n, 0.0, version_names[w]) : 0;
    printf("%s copy, %s: %.0f MiB copied, every element compared\n", bad ? "FAIL" : "PASS", version_names[w], bytes / 1048576.0);
    fails += bad != 0;
    ok[w] = !bad;
  }
  if (!fails && !check_only) {
    lk_timing opt = lk_timing_default();
    double ms[VERSIONS];
    for (int w = 0; w < VERSIONS; ++w) { c.which = w; ms[w] = ok[w] ? lk_time_ms(run_copy, &c, &opt) : 0; }
    char devs[512];
    lk_device_stamp(devs, sizeof devs);
    printf("bench: device %s, grid %d CTAs of %d threads\n", devs, c.grid, THREADS);
    for (int w = 0; w < VERSIONS; ++w) {
      if (!ok[w]) continue;
      double gbs = 2.0 * bytes / (ms[w] * 1e-3) / 1e9;
      printf("bench: %-18s %8.3f ms  %7.1f GB/s  %.3f of cudaMemcpy\n", version_names[w], ms[w], gbs, ms[0] / ms[w]);
      if (data) fprintf(data, "\"%s\" %.1f %.4f\n", version_names[w], gbs, ms[0] / ms[w]);
    }
  }
  LK_CHECK(cudaFree(src)); LK_CHECK(cudaFree(dst));
  free(h); free(back);
  return fails;
}
// ANCHOR_END: copy_host

int main(int argc, char **argv)
{
  lk_args a = { argc, argv, "usage: 04_products [--data DIR] [--quick] [--check-only]\n" };
  const char *known[] = { "--data=", "--quick", "--check-only", NULL };
  lk_args_check(&a, known);
  const char *dir = lk_arg_dir(&a, "--data");

  seed_examples();
  regroupings();
  tile_assignments_host();
  exercises();
  if (!lk_device_present()) return 0;

  FILE *bw = dir ? lk_data_open(dir, "04_bandwidth.dat", "version GB/s ratio-to-cudaMemcpy (1 GiB fp32 copy, 64x64 tiles)", 1) : NULL;
  int fails = 0;
  for (int k = 0; k < 3; ++k) fails += check_owners(&tile_assignments[k]);
  fails += compare_copies(lk_arg_flag(&a, "--quick"), lk_arg_flag(&a, "--check-only"), bw);
  if (bw) fclose(bw);
  printf("%s\n", fails ? "FAIL" : "PASS: every element every kernel wrote matches the host's prediction");
  return fails ? 1 : 0;
}
