/* Lab 02 -- local_tile: a CTA takes its tile.
 *
 * What it shows
 *   1. the host algebra: CuTe's local_tile examples computed by the library, and the GEMM-style
 *      projections of one tiler onto A (M,K), B (N,K) and C (M,N);
 *   2. on the GPU, every CTA finds its tile the way CuTe's local_tile does -- divide, then slice:
 *      the host computes zipped_divide (or tiled_divide) once, the kernel evaluates its rest mode at
 *      the CTA's coordinate (an offset) and its tile mode at each element.  Each CTA writes its id
 *      into the elements it owns; the host predicts the owner of every element from the algebra
 *      alone (lt_local_tile per CTA) and compares all of them;
 *   3. a 1 GiB tiled copy written with local_tile, timed against cudaMemcpy device-to-device, next
 *      to the same copy with hand-written index arithmetic: the layout costs nothing.
 *
 * Build and run
 *   make run LAB=02                           (or: make build/bin/02_local_tile && build/bin/02_local_tile)
 *   build/bin/02_local_tile --data DIR        also write the figures' data into DIR
 *   build/bin/02_local_tile --quick           a 64 MiB copy instead of 1 GiB
 *   build/bin/02_local_tile --check-only      verify, do not time (for compute-sanitizer)
 *
 * What it prints
 *   the host algebra (deterministic: the chapter includes it), then PASS/FAIL for each device
 *   check, then `bench:` lines with the measured bandwidths.  Without a GPU it prints the host
 *   part and "no CUDA device: skipping the device part".  It exits non-zero on any FAIL.
 */
#include "layout.h"
#include "layout_device.h"
#include "labkit.h"

/* ------------------------------------------------------------------------------------------------
 * Host algebra
 * ---------------------------------------------------------------------------------------------- */

/* print one local_tile call, then its result as CuTe would print the tensor,
 * offset o layout, on the next line (short lines: they fit a page) */
static void show(const char *cute, lt_view v)
{
  printf("  %s\n    -> %s o %s\n", cute, lt_str(&v.offset), lt_str(&v.layout));
}

// ANCHOR: seed_examples
static void seed_examples(void)
{
  printf("local_tile examples (tensor over memory, offset o layout):\n");
  lt_view mA = lt_tensor(P("(4,6):(6,_1)"));
  show("local_tile((4,6):(6,_1), (_2,_2), (1,1))",
       lt_local_tile(&mA, P("(_2,_2)"), P("(1,1)")));
  show("local_tile((4,6):(6,_1), (_2,_2), (0,_))",
       lt_local_tile(&mA, P("(_2,_2)"), P("(0,_)")));

  lt_view mB = lt_tensor(P("(4,6,8):(48,8,_1)"));
  lt_layout z = lt_zipped_divide(mB.layout, P("(_2,_2)"));
  printf("  %s\n    -> %s\n", "zipped_divide((4,6,8):(48,8,_1), (_2,_2))",
         lt_str(&z));
  show("local_tile((4,6,8):(48,8,_1), (_2,_2), (1,2))",
       lt_local_tile(&mB, P("(_2,_2)"), P("(1,2)")));

  lt_view mC = lt_tensor(P("(4,8):(8,_1)"));
  show("local_tile((4,8):(8,_1), (_2,_2,_4), (0,0,_), (_1,X,_1))",
       lt_local_tile_proj(&mC, P("(_2,_2,_4)"), P("(0,0,_)"),
                          P("(_1,X,_1)")));
}
// ANCHOR_END: seed_examples

// ANCHOR: gemm_projections
/* One tiler for a GEMM, three projections.  cta_tiler = (BLK_M,BLK_N,BLK_K)
 * = (_32,_64,_4) and cta_coord = (bx,by,_):
 *   A keeps (M,K): Step<_1,X,_1>    B keeps (N,K): Step<X,_1,_1>
 *   C keeps (M,N): Step<_1,_1,X>
 * The `_` in the coordinate keeps every k-tile: gA is (BLK_M,BLK_K,k). */
static void gemm_projections(void)
{
  lt_val tiler = P("(_32,_64,_4)"), coord = P("(1,2,_)");
  lt_view mA = lt_tensor(P("(128,16):(_1,128)"));   /* A (M,K), col-major */
  lt_view mB = lt_tensor(P("(256,16):(_1,256)"));   /* B (N,K) */
  lt_view mC = lt_tensor(P("(128,256):(_1,128)"));  /* C (M,N) */
  printf("GEMM projections, M=128 N=256 K=16:\n");
  printf("  cta_tiler %s, cta_coord %s\n", lt_str(&tiler), lt_str(&coord));
  printf("  mA = %s  mB = %s  mC = %s\n", lt_str(&mA.layout),
         lt_str(&mB.layout), lt_str(&mC.layout));
  show("gA = local_tile(mA, tiler, coord, (_1,X,_1))",
       lt_local_tile_proj(&mA, tiler, coord, P("(_1,X,_1)")));
  show("gB = local_tile(mB, tiler, coord, (X,_1,_1))",
       lt_local_tile_proj(&mB, tiler, coord, P("(X,_1,_1)")));
  show("gC = local_tile(mC, tiler, coord, (_1,_1,X))",
       lt_local_tile_proj(&mC, tiler, coord, P("(_1,_1,X)")));
}
// ANCHOR_END: gemm_projections

/* ------------------------------------------------------------------------------------------------
 * GPU kernels
 * ---------------------------------------------------------------------------------------------- */

// ANCHOR: own_tile_kernel
/* Each CTA writes its id into its tile.  dz = zipped_divide(mC, tiler)
 * = ((tile),(rest)): the rest mode at the CTA's index gives the tile's
 * offset (local_tile's slice), the tile mode at element i gives the
 * element's place in the tile. */
__global__ void own_tile(int *out, ltd_layout dz)
{
  int cta  = blockIdx.x;             // 1-D (colex) index into the rest mode
  int base = ltd_mode(&dz, 1, cta);  // the offset of local_tile(mC, ...)
  int n    = ltd_mode_size(&dz, 0);
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    out[base + ltd_mode(&dz, 0, i)] = cta;
}
// ANCHOR_END: own_tile_kernel

// ANCHOR: own_row_of_tiles
/* `_` in the coordinate: CTA bx takes the whole row of tiles (bx,_).
 * dt = tiled_divide(mC, tiler) = ((tile), m_tiles, n_tiles), and
 * local_tile(mC, tiler, (bx,_)) is (tile, n_tiles) at the offset of
 * m-tile bx: mode 1 is fixed at bx, mode 2 (the kept `_`) is looped over. */
__global__ void own_row_of_tiles(int *out, ltd_layout dt)
{
  int base = ltd_mode(&dt, 1, blockIdx.x);          // fix m-tile bx
  int n = ltd_mode_size(&dt, 0), tiles = ltd_mode_size(&dt, 2);
  for (int t = 0; t < tiles; ++t)                   // the kept mode, `_`
    for (int i = threadIdx.x; i < n; i += blockDim.x)
      out[base + ltd_mode(&dt, 2, t) + ltd_mode(&dt, 0, i)] = blockIdx.x;
}
// ANCHOR_END: own_row_of_tiles

/* Projections: CTA (bx,by) of a GEMM grid takes its tiles of one operand (all k-tiles for A and
 * B).  Several CTAs share a tile, so each counts its visits and adds its id. dt is the operand's
 * tiled_divide by its projected tiler ((tile), first tile index, second tile index). */
__global__ void visit_projected(int *count, int *idsum, ltd_layout dt, int use_x, int use_y, int tiles_k)
{
  int cta = blockIdx.x + gridDim.x * blockIdx.y;
  int c0 = use_x ? blockIdx.x : blockIdx.y;           // first kept tile coordinate
  int n = ltd_mode_size(&dt, 0);
  int kt = (use_x && use_y) ? 1 : tiles_k;            // C keeps (bx,by); A and B keep (b,_)
  for (int t = 0; t < kt; ++t) {
    int c1 = (use_x && use_y) ? blockIdx.y : t;
    int base = ltd_mode(&dt, 1, c0) + ltd_mode(&dt, 2, c1);
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
      atomicAdd(&count[base + ltd_mode(&dt, 0, i)], 1);
      atomicAdd(&idsum[base + ltd_mode(&dt, 0, i)], cta);
    }
  }
}

// ANCHOR: copy_kernels
#define TILE_M  32        // float4 elements: a tile is 128 x 64 floats
#define TILE_N  64
#define THREADS 256

/* The tiled copy written with local_tile: the rest mode (a run-time
 * layout) gives the tile's offset; the tile mode is rebuilt with its shape
 * fixed at compile time, (_32,_64):(_1,ld), so the inner loop is the same
 * arithmetic as the hand-written one below.  dz.stride[1] is leaf 1 of the
 * struct: the tile mode is leaves 0 and 1 (dz.first[1] == 2; the host
 * checks that, copy_tile_ok), so leaf 1 is the tile's second stride, ld. */
__global__ void __launch_bounds__(THREADS)
copy_local_tile(const float4 *__restrict__ src, float4 *__restrict__ dst,
                ltd_layout dz)
{
  int base = ltd_mode(&dz, 1, blockIdx.x);        // local_tile's offset
  // the tile (_32,_64):(_1,ld), its shape known at compile time
  ltd_layout tile = ltd_tile2(TILE_M, TILE_N, 1, dz.stride[1]);
#pragma unroll
  for (int k = 0; k < TILE_M * TILE_N / THREADS; ++k) {
    int o = base + ltd_eval(&tile, threadIdx.x + k * THREADS);
    dst[o] = src[o];
  }
}

/* The same copy with the index arithmetic written by hand. */
__global__ void __launch_bounds__(THREADS)
copy_hand_indexed(const float4 *__restrict__ src, float4 *__restrict__ dst,
                  int ld, int tiles_m)
{
  int bm = blockIdx.x % tiles_m, bn = blockIdx.x / tiles_m;
  int base = bm * TILE_M + bn * TILE_N * ld;
#pragma unroll
  for (int k = 0; k < TILE_M * TILE_N / THREADS; ++k) {
    int i = threadIdx.x + k * THREADS;
    int o = base + (i % TILE_M) + (i / TILE_M) * ld;
    dst[o] = src[o];
  }
}
// ANCHOR_END: copy_kernels

/* ------------------------------------------------------------------------------------------------
 * Host: prediction and verification
 * ---------------------------------------------------------------------------------------------- */

// ANCHOR: device_form
/* The host flattens a layout into the struct the kernels take by value. */
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
// ANCHOR_END: device_form

static int64_t ival(lt_val v) { return lt_value(&v); }

static lt_val coord2(int64_t a, int64_t b) { lt_val c[2] = { lt_int(a), lt_int(b) }; return lt_tuple_of(2, c); }

// ANCHOR: predict_owners
/* The host's prediction: for every CTA, local_tile gives its tile; every
 * element of the tile is owned by that CTA.  Nothing here looks at the
 * kernel. */
static void predict_owners(int *owner, lt_view mC, lt_val tiler,
                           int tiles_m, int tiles_n)
{
  for (int by = 0; by < tiles_n; ++by)
    for (int bx = 0; bx < tiles_m; ++bx) {
      lt_view tile = lt_local_tile(&mC, tiler, coord2(bx, by));
      int64_t n = ival(lt_size(tile.layout));
      for (int64_t i = 0; i < n; ++i)
        owner[ival(lt_view_eval(&tile, lt_int(i)))] = bx + tiles_m * by;
    }
}
// ANCHOR_END: predict_owners

static int check_owner_kernel(FILE *data)
{
  const int M = 128, N = 192;                         // C (M,N), column-major
  int *want = (int *)LK_MALLOC(sizeof(int) * M * N), *got = (int *)LK_MALLOC(sizeof(int) * M * N), *d;
  LK_CHECK(cudaMalloc(&d, sizeof(int) * M * N));
  lk_poison(d, sizeof(int) * M * N);
  // ANCHOR: own_tile_launch
  lt_view mC = lt_tensor(lt_make_layout_sd(coord2(M, N), P("(_1,128)")));
  lt_val tiler = P("(_32,_64)");
  lt_layout z = lt_zipped_divide(mC.layout, tiler);  // ((32,64),(4,3))
  int tiles = (int)ival(lt_size(lt_get(z, 1)));      // size of rest: 12
  own_tile<<<tiles, 128>>>(d, device_form(&z));      // one CTA per tile
  // ANCHOR_END: own_tile_launch
  LK_LAUNCH();
  predict_owners(want, mC, tiler, M / 32, N / 64);
  LK_CHECK(cudaMemcpy(got, d, sizeof(int) * M * N, cudaMemcpyDeviceToHost));
  size_t bad = lk_compare_int(got, want, (size_t)M * N, "own_tile");
  printf("%s own_tile: %d CTAs, every one of the %d elements of C owned as local_tile predicts\n",
         bad ? "FAIL" : "PASS", tiles, M * N);
  if (data) {
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) fprintf(data, "%d %d %d\n", m, n, got[m + M * n]);
  }

  /* `_` in the coordinate: CTA bx owns the row of tiles (bx,_) */
  for (int bx = 0; bx < M / 32; ++bx) {
    lt_val c[2] = { lt_int(bx), lt_underscore() };
    lt_view row = lt_local_tile(&mC, tiler, lt_tuple_of(2, c));
    int64_t n = ival(lt_size(row.layout));
    for (int64_t i = 0; i < n; ++i) want[ival(lt_view_eval(&row, lt_int(i)))] = bx;
  }
  lt_layout t = lt_tiled_divide(mC.layout, tiler);
  lk_poison(d, sizeof(int) * M * N);
  own_row_of_tiles<<<M / 32, 128>>>(d, device_form(&t));
  LK_LAUNCH();
  LK_CHECK(cudaMemcpy(got, d, sizeof(int) * M * N, cudaMemcpyDeviceToHost));
  size_t bad2 = lk_compare_int(got, want, (size_t)M * N, "own_row_of_tiles");
  printf("%s own_row_of_tiles: local_tile(mC, (_32,_64), (bx,_)) -- every element of C checked\n", bad2 ? "FAIL" : "PASS");
  LK_CHECK(cudaFree(d));
  free(want); free(got);
  return bad || bad2;
}

/* Projections of the GEMM tiler onto A, B and C: the count and id-sum of the CTAs that visit
 * every element, predicted from lt_local_tile_proj and compared. */
static int check_projections(void)
{
  const int M = 128, N = 256, K = 16, GX = M / 32, GY = N / 64, TK = K / 4;
  struct { const char *name, *shape, *stride, *step, *proj; int rows, cols, use_x, use_y; } op[3] = {
    { "A", "(128,16)",  "(_1,128)", "(_1,X,_1)", "(_32,_4)",  M, K, 1, 0 },
    { "B", "(256,16)",  "(_1,256)", "(X,_1,_1)", "(_64,_4)",  N, K, 0, 1 },
    { "C", "(128,256)", "(_1,128)", "(_1,_1,X)", "(_32,_64)", M, N, 1, 1 },
  };
  int fails = 0;
  for (int k = 0; k < 3; ++k) {
    int n = op[k].rows * op[k].cols;
    lt_view mX = lt_tensor(lt_make_layout_sd(P(op[k].shape), P(op[k].stride)));
    int *cnt = (int *)calloc((size_t)n, sizeof(int)), *ids = (int *)calloc((size_t)n, sizeof(int));
    for (int by = 0; by < GY; ++by)
      for (int bx = 0; bx < GX; ++bx) {
        lt_val c[3] = { lt_int(bx), lt_int(by), lt_underscore() };
        lt_view g = lt_local_tile_proj(&mX, P("(_32,_64,_4)"), lt_tuple_of(3, c), P(op[k].step));
        int64_t sz = ival(lt_size(g.layout));
        for (int64_t i = 0; i < sz; ++i) {
          int64_t o = ival(lt_view_eval(&g, lt_int(i)));
          cnt[o] += 1;
          ids[o] += bx + GX * by;
        }
      }
    lt_layout t = lt_tiled_divide(mX.layout, P(op[k].proj));
    int *dc, *di, *hc = (int *)LK_MALLOC(sizeof(int) * n), *hi = (int *)LK_MALLOC(sizeof(int) * n);
    LK_CHECK(cudaMalloc(&dc, sizeof(int) * n));
    LK_CHECK(cudaMalloc(&di, sizeof(int) * n));
    LK_CHECK(cudaMemset(dc, 0, sizeof(int) * n));
    LK_CHECK(cudaMemset(di, 0, sizeof(int) * n));
    visit_projected<<<dim3(GX, GY), 128>>>(dc, di, device_form(&t), op[k].use_x, op[k].use_y, TK);
    LK_LAUNCH();
    LK_CHECK(cudaMemcpy(hc, dc, sizeof(int) * n, cudaMemcpyDeviceToHost));
    LK_CHECK(cudaMemcpy(hi, di, sizeof(int) * n, cudaMemcpyDeviceToHost));
    char what[64];
    snprintf(what, sizeof what, "g%s visits", op[k].name);
    size_t bad = lk_compare_int(hc, cnt, (size_t)n, what) + lk_compare_int(hi, ids, (size_t)n, what);
    printf("%s g%s = local_tile(m%s, (_32,_64,_4), (bx,by,_), %s): which CTAs visit each of the %d elements\n",
           bad ? "FAIL" : "PASS", op[k].name, op[k].name, op[k].step, n);
    fails += bad != 0;
    LK_CHECK(cudaFree(dc)); LK_CHECK(cudaFree(di));
    free(cnt); free(ids); free(hc); free(hi);
  }
  return fails;
}

/* ------------------------------------------------------------------------------------------------
 * Host: the copy and its timing
 * ---------------------------------------------------------------------------------------------- */

// ANCHOR: copy_divide
/* The copy's host algebra, done once: the matrix in float4 units,
 * (M4,N):(_1,M4) column-major, divided into the kernel's tiles.
 * COPY_TILER and TILE_M x TILE_N above must say the same. */
static const char *COPY_TILER = "(_32,_64)";

static lt_layout copy_divide(int M4, int N)
{
  lt_val st[2] = { lt_static(1), lt_int(M4) };
  lt_layout mS = lt_make_layout_sd(coord2(M4, N), lt_tuple_of(2, st));
  return lt_zipped_divide(mS, P(COPY_TILER));     // ((tile),(rest))
}

/* copy_local_tile reads the tile's ld from leaf 1 of the struct: that is
 * right only if the tile mode is exactly leaves 0 and 1, (TILE_M,TILE_N)
 * with stride 1 down the column.  The host checks it before any launch. */
static int copy_tile_ok(const ltd_layout *dz)
{
  return dz->first[0] == 0 && dz->first[1] == 2 && dz->shape[0] == TILE_M &&
         dz->shape[1] == TILE_N && dz->stride[0] == 1;
}
// ANCHOR_END: copy_divide

/* print the device form of a layout: what the kernel receives */
static void print_device_form(const ltd_layout *d)
{
  printf("  device form: nleaves %d, nmodes %d, first {", d->nleaves, d->nmodes);
  for (int m = 0; m <= d->nmodes; ++m) printf(m ? ",%d" : "%d", d->first[m]);
  printf("}\n    shape {");
  for (int k = 0; k < d->nleaves; ++k) printf(k ? ",%d" : "%d", d->shape[k]);
  printf("}  stride {");
  for (int k = 0; k < d->nleaves; ++k) printf(k ? ",%d" : "%d", d->stride[k]);
  printf("}\n");
}

// ANCHOR: copy_plan
/* Printed by the host part: the copy's zipped_divide, its device form,
 * the grid (one CTA per entry of the rest mode), and whether its tile
 * mode is the tile the kernels assume, (TILE_M,TILE_N):(1,ld). */
static void copy_plan(void)
{
  const int M4 = 4096, N = 16384;
  lt_layout z = copy_divide(M4, N);
  ltd_layout dz = device_form(&z);
  lt_layout tile = lt_get(z, 0), rest = lt_get(z, 1);
  printf("tiled copy of (%d,%d) float4 (1 GiB), TILE_M x TILE_N = %d x %d:\n",
         M4, N, TILE_M, TILE_N);
  printf("  zipped_divide((%d,%d):(_1,%d), %s)\n    -> %s\n", M4, N, M4,
         COPY_TILER, lt_str(&z));
  print_device_form(&dz);
  printf("  rest mode %s: %d CTAs, one per tile\n", lt_str(&rest),
         ltd_mode_size(&dz, 1));
  printf("  tile mode %s %s the kernels' tile (%d,%d):(1,ld)\n",
         lt_str(&tile), copy_tile_ok(&dz) ? "matches" : "does NOT match",
         TILE_M, TILE_N);
}
// ANCHOR_END: copy_plan

typedef struct { const float4 *src; float4 *dst; ltd_layout dz; int ld, tiles, tiles_m; size_t bytes; int which; } copy_ctx;

static void run_copy(void *p)
{
  copy_ctx *c = (copy_ctx *)p;
  if (c->which == 0) LK_CHECK(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, 0));
  else if (c->which == 1) { copy_local_tile<<<c->tiles, THREADS>>>(c->src, c->dst, c->dz); LK_LAUNCH(); }
  else { copy_hand_indexed<<<c->tiles, THREADS>>>(c->src, c->dst, c->ld, c->tiles_m); LK_LAUNCH(); }
}

static int check_and_time_copy(int quick, int check_only, FILE *data)
{
  /* the matrix in float4 units: (M4, N) column-major; 1 GiB = 4096 x 16384 float4 */
  const int M4 = 4096, N = quick ? 1024 : 16384;
  const size_t n4 = (size_t)M4 * N, bytes = n4 * sizeof(float4);
  lt_layout z = copy_divide(M4, N);
  ltd_layout dz = device_form(&z);
  if (!copy_tile_ok(&dz) || ltd_mode_size(&dz, 0) != TILE_M * TILE_N || dz.stride[0] != 1) { printf("FAIL the tile mode is not (_32,_64):(_1,ld)\n"); return 1; }

  float *h = (float *)LK_MALLOC(bytes), *back = (float *)LK_MALLOC(bytes);
  lk_fill_random(h, n4 * 4, 2024);
  float4 *src, *dst;
  LK_CHECK(cudaMalloc(&src, bytes));
  LK_CHECK(cudaMalloc(&dst, bytes));
  LK_CHECK(cudaMemcpy(src, h, bytes, cudaMemcpyHostToDevice));
  copy_ctx c = { src, dst, dz, M4, ltd_mode_size(&dz, 1), M4 / TILE_M, bytes, 0 };   // grid: size of the rest mode
  int fails = 0;
  const char *names[3] = { "cudaMemcpy", "copy_local_tile", "copy_hand_indexed" };
  for (int w = 1; w <= 2; ++w) {                     // verify before timing, every element
    lk_poison(dst, bytes);
    c.which = w;
    run_copy(&c);
    LK_CHECK(cudaMemcpy(back, dst, bytes, cudaMemcpyDeviceToHost));
    size_t bad = memcmp(back, h, bytes) ? lk_compare_float(back, h, n4 * 4, 0.0, names[w]) : 0;
    printf("%s %s: %.0f MiB copied, every element compared\n", bad ? "FAIL" : "PASS", names[w], bytes / 1048576.0);
    fails += bad != 0;
  }
  if (!fails && !check_only) {
    lk_timing opt = lk_timing_default();
    double ms[3];
    for (int w = 0; w < 3; ++w) { c.which = w; ms[w] = lk_time_ms(run_copy, &c, &opt); }
    char dev[512];
    lk_device_stamp(dev, sizeof dev);
    printf("bench: device %s\n", dev);
    for (int w = 0; w < 3; ++w) {
      double gbs = 2.0 * bytes / (ms[w] * 1e-3) / 1e9;  // bytes read + bytes written
      printf("bench: %-18s %8.3f ms  %7.1f GB/s  %.3f of cudaMemcpy\n", names[w], ms[w], gbs, ms[0] / ms[w]);
      if (data) fprintf(data, "%s %.1f %.4f\n", names[w], gbs, ms[0] / ms[w]);
    }
  }
  LK_CHECK(cudaFree(src)); LK_CHECK(cudaFree(dst));
  free(h); free(back);
  return fails;
}

/* ------------------------------------------------------------------------------------------------
 * main
 * ---------------------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
  lk_args a = { argc, argv, "usage: 02_local_tile [--data DIR] [--quick] [--check-only]\n" };
  const char *known[] = { "--data=", "--quick", "--check-only", NULL };
  lk_args_check(&a, known);
  const char *dir = lk_arg_dir(&a, "--data");

  seed_examples();
  gemm_projections();
  copy_plan();
  if (!lk_device_present()) return 0;

  FILE *own = dir ? lk_data_open(dir, "02_owners.dat", "row col cta: the CTA that wrote each element of C (128 x 192, tiles 32 x 64)", 1) : NULL;
  FILE *bw  = dir ? lk_data_open(dir, "02_bandwidth.dat", "version GB/s ratio-to-cudaMemcpy (1 GiB fp32 copy)", 1) : NULL;
  int fails = check_owner_kernel(own);
  fails += check_projections();
  fails += check_and_time_copy(lk_arg_flag(&a, "--quick"), lk_arg_flag(&a, "--check-only"), bw);
  if (own) fclose(own);
  if (bw) fclose(bw);
  printf("%s\n", fails ? "FAIL" : "PASS: every element every kernel wrote matches the host's prediction");
  return fails ? 1 : 0;
}
