/* Lab 03 -- local_partition: a thread takes its elements.
 *
 * What it shows
 *   1. the host algebra: CuTe's local_partition examples computed by the library, and the two ways
 *      to hand a (BM,BK) = (64,16) tile to 256 threads: interleaved (local_partition: the thread
 *      layout tiles the tile, each thread takes one element of every repeat) and blocked (local_tile
 *      per thread: each thread takes a contiguous 2x2 block);
 *   2. on the GPU, every thread finds its elements the way local_partition does -- divide, then
 *      slice the *tile* mode at the thread's coordinate (an outer partition) -- and writes its
 *      thread id into them; the host predicts the owner of every element from lt_local_partition
 *      alone and compares all of them; again with a projection step;
 *   3. why interleaving matters: a 1 GiB copy in which threads take elements by local_partition,
 *      against the same copy in which each thread takes a contiguous block -- same data, same
 *      launch -- with 2x2 elements per thread (tile (64,16)) and with 8x4 (tile (256,32)).  Blocks
 *      two floats wide cost nothing measurable (each instruction touches 8 half-used sectors, and
 *      the caches absorb them); blocks eight floats wide make every load and store instruction
 *      touch 32 sectors and lose most of the bandwidth.
 *
 * Build and run
 *   make run LAB=03                     (or: make build/bin/03_local_partition && build/bin/03_local_partition)
 *   build/bin/03_local_partition --data DIR     also write the figures' data into DIR
 *   build/bin/03_local_partition --quick        a 64 MiB copy instead of 1 GiB
 *   build/bin/03_local_partition --check-only   verify, do not time (for compute-sanitizer)
 *   build/bin/03_local_partition --exercise K   print what exercise K checks (host only), stop
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

static void show(const char *cute, lt_view v)
{
  printf("  %-62s -> %s o %s\n", cute, lt_str(&v.offset), lt_str(&v.layout));
}

static lt_val pair(int64_t a, int64_t b) { lt_val c[2] = { lt_int(a), lt_int(b) }; return lt_tuple_of(2, c); }
static int64_t ival(lt_val v) { return lt_value(&v); }

// ANCHOR: seed_examples
static void seed_examples(void)
{
  printf("local_partition examples (tensor over memory, offset o layout):\n");
  lt_view m = lt_tensor(P("(8,6):(_1,8)"));
  lt_layout thr = P("(_4,_2):(_1,_4)");
  show("local_partition((8,6):(_1,8), (_4,_2):(_1,_4), 1)",
       lt_local_partition(&m, thr, lt_int(1)));
  show("local_partition((8,6):(_1,8), (_4,_2):(_1,_4), 1, (_1,X))",
       lt_local_partition_proj(&m, thr, lt_int(1), P("(_1,X)")));
  lt_layout z = lt_zipped_divide(m.layout, P("(_4,_2)"));
  printf("  %-62s -> %s\n", "zipped_divide((8,6):(_1,8), (_4,_2))", lt_str(&z));
  printf("  (local_partition slices mode 0 of that at the thread;"
         " local_tile slices mode 1)\n");
}
// ANCHOR_END: seed_examples

// ANCHOR: two_assignments
/* A (BM,BK) = (64,16) tile of a column-major matrix, 256 threads as a (_32,_8)
 * thread layout.
 * Interleaved: local_partition(tile, thr, t) -- (2,2) elements, 32 apart in m and
 *              8 apart in k.
 * Blocked:     local_tile(tile, (_2,_2), coord of t) -- a contiguous 2x2 block per
 *              thread. */
static void two_assignments(void)
{
  printf("a (64,16) tile, ld 1024, 256 threads as (_32,_8):(_1,_32):\n");
  lt_view tile = lt_tensor(P("(_64,_16):(_1,1024)"));
  lt_layout thr = P("(_32,_8):(_1,_32)");
  for (int t = 0; t < 3; ++t) {
    char what[96];
    lt_view in = lt_local_partition(&tile, thr, lt_int(t));
    snprintf(what, sizeof what,
             "interleaved: local_partition(tile, thr, %d)", t);
    show(what, in);
  }
  for (int t = 0; t < 3; ++t) {
    char what[96];
    lt_val c = lt_idx2crd(P("(_32,_8)"), lt_int(t));
    lt_view bl = lt_local_tile(&tile, P("(_2,_2)"), c);
    snprintf(what, sizeof what,
             "blocked:     local_tile(tile, (_2,_2), %s)", lt_str(&c));
    show(what, bl);
  }
}
// ANCHOR_END: two_assignments

/* ------------------------------------------------------------------------------------------------
 * GPU kernels
 * ---------------------------------------------------------------------------------------------- */

// ANCHOR: own_partition_kernel
/* One CTA, one tile.  thr: the thread layout (patch position -> thread id).
 * dz = zipped_divide(tile, product_each(shape(thr))) = ((patch),(rest)):
 * local_partition slices the *first* mode at the thread's coordinate and keeps
 * the rest. */
__global__ void own_partition(int *out, ltd_layout thr, ltd_layout dz)
{
  // thr.get_flat_coord(tid), as one index into the patch
  int t    = ltd_thread_index(&thr, threadIdx.x);
  // the offset of local_partition(tile, thr, tid)
  int base = ltd_mode(&dz, 0, t);
  int n    = ltd_mode_size(&dz, 1);
  for (int j = 0; j < n; ++j)
    out[base + ltd_mode(&dz, 1, j)] = threadIdx.x;
}
// ANCHOR_END: own_partition_kernel

/* With a projection several threads share elements: each counts its visits and adds its id. */
__global__ void visit_partition(int *count, int *idsum, ltd_layout thr, ltd_layout dz)
{
  int t = ltd_thread_index(&thr, threadIdx.x);
  int base = ltd_mode(&dz, 0, t), n = ltd_mode_size(&dz, 1);
  for (int j = 0; j < n; ++j) {
    atomicAdd(&count[base + ltd_mode(&dz, 1, j)], 1);
    atomicAdd(&idsum[base + ltd_mode(&dz, 1, j)], (int)threadIdx.x);
  }
}

// ANCHOR: copy_kernels
#define THREADS 256                 // as a (_32,_8) thread layout

/* One CTA copies one (bm,bk) tile of a column-major matrix; each of its 256
 * threads copies (bm/32) x (bk/8) elements.  dz = zipped_divide(matrix, (bm,bk)):
 * its rest mode gives the tile, leaves 0 and 1 are the tile mode (bm,bk):(1,ld).
 * The thread ids are numbered column-major, (_32,_8):(_1,_32), so thread t sits
 * at patch position (t%32, t/32).  Two layouts, built with constant shapes:
 *   toff  the thread-offset layout: thread id -> offset of its first element;
 *   voff  the value-offset layout: element j -> offset from that first element.
 *   interleaved: the two modes of zipped_divide(tile, (_32,_8)) =
 *                ((32,8),(bm/32,bk/8)):((1,ld),(32,8*ld)) -- local_partition;
 *                a warp reads 32 neighbouring floats per instruction;
 *   blocked:     the two modes of zipped_divide(tile, (bm/32,bk/8)) =
 *                ((bm/32,bk/8),(32,8)):((1,ld),(bm/32,(bk/8)*ld)) -- local_tile
 *                per thread; a warp's threads read floats bm/32 apart.
 * Called with constant bm, bk the layouts fold to plain index arithmetic. */
static __device__ __forceinline__ void
copy_tile(const float *__restrict__ src, float *__restrict__ dst,
          const ltd_layout *dz, int interleaved, int bm, int bk)
{
  int base = ltd_mode(dz, 1, blockIdx.x);       // the CTA's tile (local_tile)
  int ld = dz->stride[1];                       // leaf 1: the tile mode's stride
  int vm = bm / 32, vk = bk / 8;
  ltd_layout toff = interleaved ? ltd_tile2(32, 8, 1, ld)    // thread -> offset
                                : ltd_tile2(32, 8, vm, vk * ld);
  ltd_layout voff = interleaved ? ltd_tile2(vm, vk, 32, 8 * ld) // its elements
                                : ltd_tile2(vm, vk, 1, ld);
  int t0 = base + ltd_eval(&toff, threadIdx.x);
#pragma unroll
  for (int j = 0; j < vm * vk; ++j)
    dst[t0 + ltd_eval(&voff, j)] = src[t0 + ltd_eval(&voff, j)];
}

__global__ void __launch_bounds__(THREADS)
copy_interleaved_2x2(const float *s, float *d, ltd_layout dz)
{ copy_tile(s, d, &dz, 1, 64, 16); }
__global__ void __launch_bounds__(THREADS)
copy_blocked_2x2(const float *s, float *d, ltd_layout dz)
{ copy_tile(s, d, &dz, 0, 64, 16); }
__global__ void __launch_bounds__(THREADS)
copy_interleaved_8x4(const float *s, float *d, ltd_layout dz)
{ copy_tile(s, d, &dz, 1, 256, 32); }
__global__ void __launch_bounds__(THREADS)
copy_blocked_8x4(const float *s, float *d, ltd_layout dz)
{ copy_tile(s, d, &dz, 0, 256, 32); }
// ANCHOR_END: copy_kernels

/* ------------------------------------------------------------------------------------------------
 * Host: prediction and verification
 * ---------------------------------------------------------------------------------------------- */

// ANCHOR: host_flatten
/* product_each(shape(thr)): the thread tiler local_partition divides by */
static lt_val thread_tiler(lt_layout thr)
{
  lt_val s = lt_shape(thr), r = lt_rank(s);
  lt_val sizes[8];
  int n = (int)ival(r);
  if (!lt_is_tuple(&s)) { sizes[0] = lt_size(s); n = 1; }
  else for (int i = 0; i < n && i < 8; ++i) sizes[i] = lt_size(lt_get(s, i));
  return lt_tuple_of(n, sizes);
}

/* the flat device form of a host layout (lib/layout_device.h) */
static ltd_layout device_form(const lt_layout *l)
{
  ltd_layout d;
  char err[256];
  if (ltd_from_layout(l, &d, err, sizeof err) != 0) {
    fprintf(stderr, "device form: %s\n", err);
    exit(1);
  }
  return d;
}
// ANCHOR_END: host_flatten

// ANCHOR: predict_owners
static int predict_owners(int *owner, int64_t size, lt_view tile, lt_layout thr,
                          int threads)
{
  for (int t = 0; t < threads; ++t) {
    lt_view mine = lt_local_partition(&tile, thr, lt_int(t));
    int64_t n = ival(lt_size(mine.layout));
    for (int64_t j = 0; j < n; ++j) {
      int64_t o = ival(lt_view_eval(&mine, lt_int(j)));
      if (o < 0 || o >= size) {
        printf("FAIL thread %d of %s reaches offset %lld, outside the tile\n",
               t, lt_str(&thr), (long long)o);
        return -1;
      }
      owner[o] = t;
    }
  }
  return 0;
}
// ANCHOR_END: predict_owners

static int check_owners(const char *thr_text, FILE *data)
{
  const int M = 64, K = 16;
  lt_view tile = lt_tensor(P("(_64,_16):(_1,_64)"));
  lt_layout thr = P(thr_text);
  int threads = (int)ival(lt_size(thr));
  int *want = (int *)LK_MALLOC(sizeof(int) * M * K), *got = (int *)LK_MALLOC(sizeof(int) * M * K), *d;
  if (predict_owners(want, (int64_t)M * K, tile, thr, threads) != 0) { free(want); free(got); return 1; }
  LK_CHECK(cudaMalloc(&d, sizeof(int) * M * K));
  lk_poison(d, sizeof(int) * M * K);
  // ANCHOR: own_partition_launch
  /* thr is e.g. (_32,_8):(_1,_32); the host divides the tile by its shape ... */
  lt_layout z = lt_zipped_divide(tile.layout, thread_tiler(thr));
  /* ... flattens both layouts and passes them by value: one CTA of size(thr) */
  ltd_layout dthr = device_form(&thr), dz = device_form(&z);
  own_partition<<<1, threads>>>(d, dthr, dz);
  // ANCHOR_END: own_partition_launch
  LK_LAUNCH();
  LK_CHECK(cudaMemcpy(got, d, sizeof(int) * M * K, cudaMemcpyDeviceToHost));
  size_t bad = lk_compare_int(got, want, (size_t)M * K, "own_partition");
  printf("%s own_partition, thread layout %s: every element of the (64,16) tile owned as local_partition predicts\n",
         bad ? "FAIL" : "PASS", thr_text);
  if (data)
    for (int m = 0; m < M; ++m)
      for (int k = 0; k < K; ++k) fprintf(data, "%d %d %d\n", m, k, got[m + M * k]);
  LK_CHECK(cudaFree(d));
  free(want); free(got);
  return bad != 0;
}

/* Projection: thr = (_16,_16,_1):(_16,_1,_0) over (M,N,K); for A (M,K) the step (_1,X,_1) drops
 * the N mode, so the 16 threads that differ only in n share every element of A. */
static int check_projection(void)
{
  const int M = 64, K = 16;
  lt_view tile = lt_tensor(P("(_64,_16):(_1,_64)"));
  lt_layout thr = P("(_16,_16,_1):(_16,_1,_0)");
  lt_val step = P("(_1,X,_1)");
  int *cnt = (int *)calloc(M * K, sizeof(int)), *ids = (int *)calloc(M * K, sizeof(int));
  for (int t = 0; t < 256; ++t) {
    lt_view mine = lt_local_partition_proj(&tile, thr, lt_int(t), step);
    int64_t n = ival(lt_size(mine.layout));
    for (int64_t j = 0; j < n; ++j) { int64_t o = ival(lt_view_eval(&mine, lt_int(j))); cnt[o]++; ids[o] += t; }
  }
  lt_layout dthr = lt_dice(step, thr);                 /* the projected thread layout (_16,_1):(_16,_0) */
  lt_layout z = lt_zipped_divide(tile.layout, thread_tiler(dthr));
  int *dc, *di, *hc = (int *)LK_MALLOC(sizeof(int) * M * K), *hi = (int *)LK_MALLOC(sizeof(int) * M * K);
  LK_CHECK(cudaMalloc(&dc, sizeof(int) * M * K));
  LK_CHECK(cudaMalloc(&di, sizeof(int) * M * K));
  LK_CHECK(cudaMemset(dc, 0, sizeof(int) * M * K));
  LK_CHECK(cudaMemset(di, 0, sizeof(int) * M * K));
  visit_partition<<<1, 256>>>(dc, di, device_form(&dthr), device_form(&z));
  LK_LAUNCH();
  LK_CHECK(cudaMemcpy(hc, dc, sizeof(int) * M * K, cudaMemcpyDeviceToHost));
  LK_CHECK(cudaMemcpy(hi, di, sizeof(int) * M * K, cudaMemcpyDeviceToHost));
  size_t bad = lk_compare_int(hc, cnt, (size_t)M * K, "visit counts") + lk_compare_int(hi, ids, (size_t)M * K, "visit ids");
  printf("%s local_partition(tA, (_16,_16,_1):(_16,_1,_0), t, (_1,X,_1)): which threads visit each element of A\n", bad ? "FAIL" : "PASS");
  LK_CHECK(cudaFree(dc)); LK_CHECK(cudaFree(di));
  free(cnt); free(ids); free(hc); free(hi);
  return bad != 0;
}

/* ------------------------------------------------------------------------------------------------
 * Host: interleaved versus blocked, measured
 * ---------------------------------------------------------------------------------------------- */

typedef void (*copy_kernel)(const float *, float *, ltd_layout);

typedef struct { const float *src; float *dst; ltd_layout dz[2]; int tiles[2]; size_t bytes; int which; } copy_ctx;

static const char *copy_names[5] = { "cudaMemcpy", "interleaved 2x2", "blocked 2x2", "interleaved 8x4", "blocked 8x4" };
static copy_kernel copy_kernels[5] = { NULL, copy_interleaved_2x2, copy_blocked_2x2, copy_interleaved_8x4, copy_blocked_8x4 };

static void run_copy(void *p)
{
  copy_ctx *c = (copy_ctx *)p;
  if (c->which == 0) { LK_CHECK(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, 0)); return; }
  int big = c->which >= 3;
  copy_kernels[c->which]<<<c->tiles[big], THREADS>>>(c->src, c->dst, c->dz[big]);
  LK_LAUNCH();
}

/* The same 1 GiB copy four ways: tiles (64,16) and (256,32), each thread taking 2x2 or 8x4
 * elements either interleaved (local_partition) or as a contiguous block. */
static int compare_copies(int quick, int check_only, FILE *data)
{
  const int M = 16384, N = quick ? 1024 : 16384;      /* fp32, column-major: 1 GiB */
  const size_t n = (size_t)M * N, bytes = n * sizeof(float);
  lt_val st[2] = { lt_static(1), lt_int(M) };
  lt_layout mS = lt_make_layout_sd(pair(M, N), lt_tuple_of(2, st));
  lt_layout z0 = lt_zipped_divide(mS, P("(_64,_16)")), z1 = lt_zipped_divide(mS, P("(_256,_32)"));
  float *h = (float *)LK_MALLOC(bytes), *back = (float *)LK_MALLOC(bytes);
  lk_fill_random(h, n, 303);
  float *src, *dst;
  LK_CHECK(cudaMalloc(&src, bytes));
  LK_CHECK(cudaMalloc(&dst, bytes));
  LK_CHECK(cudaMemcpy(src, h, bytes, cudaMemcpyHostToDevice));
  copy_ctx c = { src, dst, { device_form(&z0), device_form(&z1) }, { (int)(n / (64 * 16)), (int)(n / (256 * 32)) }, bytes, 0 };
  int fails = 0;
  for (int w = 1; w <= 4; ++w) {
    lk_poison(dst, bytes);
    c.which = w;
    run_copy(&c);
    LK_CHECK(cudaMemcpy(back, dst, bytes, cudaMemcpyDeviceToHost));
    size_t bad = memcmp(back, h, bytes) ? lk_compare_float(back, h, n, 0.0, copy_names[w]) : 0;
    printf("%s copy, %s: %.0f MiB copied, every element compared\n", bad ? "FAIL" : "PASS", copy_names[w], bytes / 1048576.0);
    fails += bad != 0;
  }
  if (!fails && !check_only) {
    lk_timing opt = lk_timing_default();
    double ms[5];
    for (int w = 0; w < 5; ++w) { c.which = w; ms[w] = lk_time_ms(run_copy, &c, &opt); }
    char dev[512];
    lk_device_stamp(dev, sizeof dev);
    printf("bench: device %s\n", dev);
    for (int w = 0; w < 5; ++w) {
      double gbs = 2.0 * bytes / (ms[w] * 1e-3) / 1e9;
      printf("bench: %-16s %8.3f ms  %7.1f GB/s  %.3f of cudaMemcpy\n", copy_names[w], ms[w], gbs, ms[0] / ms[w]);
      if (data) fprintf(data, "\"%s\" %.1f %.4f\n", copy_names[w], gbs, ms[0] / ms[w]);
    }
  }
  LK_CHECK(cudaFree(src)); LK_CHECK(cudaFree(dst));
  free(h); free(back);
  return fails;
}

/* ------------------------------------------------------------------------------------------------
 * Host: exercises (chapter 3).  Change the values below; `make check LAB=03 EX=K` checks them by
 * running this program with --exercise K (host only) and recomputing its lines with the calculator.
 * ---------------------------------------------------------------------------------------------- */

// ANCHOR: exercise_1
/* Exercise 1: number the 256 threads along k first -- thread 1 next to thread 0
 * in k, not in m -- and predict, before you run it, which elements thread 37 takes
 * of the lab's (64,16) tile (ld 1024), written exactly as the program prints a
 * view, static marks included: "offset o layout". */
static const char *ex1_thread_layout = "(_32,_8):(_1,_32)";
static const char *ex1_prediction    = "? o ?";
// ANCHOR_END: exercise_1

// ANCHOR: exercise_2
/* Exercise 2: 128 threads share a (64,16) column-major tile, (_64,_16):(_1,_64)
 * (ld 64).  Give every thread its elements in float4s: elements 4q..4q+3 of its
 * view must be 4 neighbouring floats along m, starting at a multiple of 4 -- a
 * blocked assignment with vectors -- and every element of the tile must have
 * exactly one owner. */
static lt_view ex2_thread_view(const lt_view *tile, int t)
{
  return lt_local_partition(tile, P("(_16,_8):(_1,_16)"), lt_int(t));
}
// ANCHOR_END: exercise_2

// ANCHOR: exercise_3
/* Exercise 3: the thread layout (_16,_16,_1):(_16,_1,_0) runs over (M,N,K).
 * Operand A is (M,K) and takes the step (_1,X,_1): the threads that differ only
 * in n share its elements.  Operand B is (N,K).  Which step gives every thread
 * its part of B, shared by the threads that differ only in m? */
static const char *ex3_step_b = "(_1,X,_1)";
// ANCHOR_END: exercise_3

static void print_exercise(int k)
{
  if (k == 1) {
    lt_view tile = lt_tensor(P("(_64,_16):(_1,1024)"));
    lt_view mine = lt_local_partition(&tile, P(ex1_thread_layout), lt_int(37));
    printf("exercise 1: thread layout %s\n", ex1_thread_layout);
    printf("exercise 1: predicted thread 37: %s\n", ex1_prediction);
    printf("exercise 1: computed thread 37: %s o %s\n", lt_str(&mine.offset), lt_str(&mine.layout));
  } else if (k == 2) {
    lt_view tile = lt_tensor(P("(_64,_16):(_1,_64)"));
    for (int t = 0; t < 128; ++t) {
      lt_view mine = ex2_thread_view(&tile, t);
      printf("exercise 2: thread %d: %s o %s\n", t, lt_str(&mine.offset), lt_str(&mine.layout));
    }
  } else {
    lt_view tile = lt_tensor(P("(_64,_16):(_1,_64)"));
    lt_layout thr = P("(_16,_16,_1):(_16,_1,_0)");
    printf("exercise 3: step %s\n", ex3_step_b);
    for (int t = 0; t < 256; ++t) {
      lt_view mine = lt_local_partition_proj(&tile, thr, lt_int(t), P(ex3_step_b));
      printf("exercise 3: thread %d: %s o %s\n", t, lt_str(&mine.offset), lt_str(&mine.layout));
    }
  }
}

int main(int argc, char **argv)
{
  lk_args a = { argc, argv, "usage: 03_local_partition [--data DIR] [--quick] [--check-only] [--exercise K]\n" };
  const char *known[] = { "--data=", "--quick", "--check-only", "--exercise=", NULL };
  lk_args_check(&a, known);
  const char *dir = lk_arg_dir(&a, "--data");
  int exercise = (int)lk_arg_int(&a, "--exercise", 0, 1, 3);
  if (exercise) { print_exercise(exercise); return 0; }

  seed_examples();
  two_assignments();
  if (!lk_device_present()) return 0;

  FILE *own = dir ? lk_data_open(dir, "03_owners.dat", "row col thread: the thread that wrote each element of the (64,16) tile", 1) : NULL;
  FILE *bw  = dir ? lk_data_open(dir, "03_bandwidth.dat", "version GB/s ratio-to-cudaMemcpy (1 GiB fp32 copy)", 1) : NULL;
  int fails = check_owners("(_32,_8):(_1,_32)", own);
  fails += check_owners("(_32,_8):(_8,_1)", NULL);        /* threads numbered along k first */
  fails += check_owners("((_4,_8),_8):((_1,_32),_4)", NULL);   /* a hierarchical thread layout */
  fails += check_projection();
  fails += compare_copies(lk_arg_flag(&a, "--quick"), lk_arg_flag(&a, "--check-only"), bw);
  if (own) fclose(own);
  if (bw) fclose(bw);
  printf("%s\n", fails ? "FAIL" : "PASS: every element every kernel wrote matches the host's prediction");
  return fails ? 1 : 0;
}
