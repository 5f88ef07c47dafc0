/* Lab 06 -- persistent tile scheduling: raster order, swizzle, clusters, measured.
 *
 * What it shows
 *   1. the host part: the schedule of CuTeDSL's StaticPersistentTileScheduler (lib/tile_scheduler.h)
 *      for the five configurations of the seed text -- 4 x 4 tiles, 8 active CTAs: raster along M,
 *      along N, swizzle 2, cluster (2,1,1), cluster (2,1,1) with swizzle 2 -- as tables of which CTA
 *      takes each tile in which wave, each statement about them checked; the cluster order as a
 *      layout of the book's algebra, evaluated; the grid of a 2 x 2 cluster; a batched problem's
 *      tile code run on the host;
 *   2. on the GPU, a persistent kernel walks the schedule with the same lts_* functions and records,
 *      for every tile, the CTA, the SM (%smid), its iteration and its start and end (%globaltimer);
 *      the host checks that every tile ran exactly once, on the predicted CTA, in the predicted
 *      order, and that every element of the result is right;
 *   3. the same kernel -- a GEMM's memory traffic (each tile reads a BM x K slab of A and a K x BN
 *      slab of B; A and B are 128 MiB each, more than L2) with a cheap reduction in place of the
 *      dot products -- timed with raster M and N and swizzle 1, 2, 4, 8, and as a plain
 *      non-persistent launch.
 *
 * Build and run
 *   make run LAB=06                          (or: make build/bin/06_scheduling && build/bin/06_scheduling)
 *   build/bin/06_scheduling --predict TM TN TL CM CN SWIZZLE RASTER ACTIVE
 *                                            the schedule, one line per work item (RASTER: m or n;
 *                                            ACTIVE: active clusters); nothing else runs
 *   build/bin/06_scheduling --data DIR       also write the figures' data into DIR
 *   build/bin/06_scheduling --quick          a 2048 x 2048 problem, K = 512, instead of 16384 x 16384, K = 2048
 *   build/bin/06_scheduling --check-only     verify, do not time (for compute-sanitizer)
 *   build/bin/06_scheduling --profile        run each schedule once, unverified, untimed (for
 *                                            ncu --metrics dram__bytes_read.sum)
 *
 * What it prints
 *   the host part (deterministic: the chapter includes it), then PASS/FAIL for each device check,
 *   then `bench:` lines.  Without a GPU it prints the host part and "no CUDA device: skipping the
 *   device part".  It exits non-zero on any FAIL.
 */
#include "layout.h"
#include "labkit.h"
#include "tile_scheduler.h"

#include <math.h>

/* ------------------------------------------------------------------------------------------------
 * Host part: the schedule predicted
 * ---------------------------------------------------------------------------------------------- */

/* One configuration of the scheduler and the grid it launches. */
typedef struct sched {
  lts_params p;
  int active;                          /* max_active_clusters: clusters, not CTAs */
  int gx, gy, gz;                      /* the grid, (CM, CN, persistent clusters) */
} sched;

static sched make_sched(int tm, int tn, int tl, int cm, int cn, int swizzle, int raster_m, int active)
{
  sched s;
  const char *err;
  if (!lts_init(&s.p, tm, tn, tl, cm, cn, swizzle, raster_m, &err)) { fprintf(stderr, "lts_init: %s\n", err); exit(2); }
  s.active = active;
  lts_grid(&s.p, active, &s.gx, &s.gy, &s.gz);
  return s;
}

static int cta_id(const sched *s, int bx, int by, int bz) { return bx + s->gx * (by + s->gy * bz); }

// ANCHOR: predict
/* The whole schedule, as every CTA of the grid will walk it: for each tile of the problem, the CTA
 * that takes it and at which iteration (its wave).  Work items outside the problem (the clusters
 * that a swizzle or a cluster shape rounds up) are valid work for the scheduler; the kernel skips
 * them.  Returns the number of work items. */
static int predict(const sched *s, int *cta_of, int *iter_of)
{
  const lts_params *p = &s->p;
  int items = 0;
  for (int i = 0; i < p->tiles_m * p->tiles_n * p->tiles_l; ++i) cta_of[i] = iter_of[i] = -1;
  for (int bz = 0; bz < s->gz; ++bz)
    for (int by = 0; by < s->gy; ++by)
      for (int bx = 0; bx < s->gx; ++bx)
        for (int k = 0;; ++k) {
          lts_work w = lts_work_at(p, s->gz, bx, by, bz, k);
          if (!w.valid) break;
          items++;
          if (w.m >= p->tiles_m || w.n >= p->tiles_n) continue;
          int t = w.m + p->tiles_m * (w.n + p->tiles_n * w.l);
          cta_of[t] = cta_id(s, bx, by, bz);
          iter_of[t] = k;
        }
  return items;
}
// ANCHOR_END: predict

/* --predict: one line per work item, ordered by CTA, then iteration. */
static void print_predict(const sched *s)
{
  for (int bz = 0; bz < s->gz; ++bz)
    for (int by = 0; by < s->gy; ++by)
      for (int bx = 0; bx < s->gx; ++bx)
        for (int k = 0;; ++k) {
          lts_work w = lts_work_at(&s->p, s->gz, bx, by, bz, k);
          if (!w.valid) break;
          printf("cta %d iter %d idx %d tile %d %d %d\n", cta_id(s, bx, by, bz), k, w.idx, w.m, w.n, w.l);
        }
}

/* A Stream-K schedule (lib/tile_scheduler.h), one line per unit, CTA by CTA: the tile, its k tiles
 * [b,e), and what the CTA does with the sums -- writes the whole tile, owns it (adds its peers'
 * partial sums, then writes it), or leaves partial sums in its workspace slot. */
static void print_sk_units(const lts_sk_params *sk, const char *prefix)
{
  for (int c = 0; c < sk->ctas; ++c)
    for (int i = 0;; ++i) {
      lts_sk_unit u = lts_sk_unit_at(sk, c, i);
      if (!u.valid) break;
      printf("%scta %d unit %d tile %d (%d,%d,%d) k [%d,%d) ", prefix, c, i, u.tile, u.m, u.n, u.l, u.k_begin, u.k_end);
      if (u.k_begin == 0 && u.k_end == sk->k_iters) printf("whole\n");
      else if (u.k_end == sk->k_iters && u.peers == 1) printf("owner: adds the partial sums of CTA %d, writes the tile\n", c - 1);
      else if (u.k_end == sk->k_iters)
        printf("owner: adds the partial sums of CTAs %d down to %d, writes the tile\n", c - 1, c - u.peers);
      else printf("partial: sums to workspace slot %d\n", c);
    }
}

static lt_val tup2(lt_val a, lt_val b) { lt_val t[2] = { a, b }; return lt_tuple_of(2, t); }
static lt_val tup3(lt_val a, lt_val b, lt_val c) { lt_val t[3] = { a, b, c }; return lt_tuple_of(3, t); }

// ANCHOR: cluster_layout
/* The order of the work as a layout of the book's algebra: cluster coordinate (m, n, l) -> work
 * index.  With swizzle S > 1 this is CuTeDSL's problem_layout_ncluster_mnl:
 *   raster along m: (M,(S,N/S),L):(S,(1,S*M),M*N)    -- S columns of clusters side by side, down m
 *   raster along n: ((S,M/S),N,L):((1,S*N),S,M*N)    -- S rows of clusters side by side, along n
 * With S == 1 CuTeDSL keeps a column-major layout and decodes the index with divisions in the
 * raster's order; the layout that says the same is (M,N,L):(1,M,M*N) or (M,N,L):(N,1,M*N). */
static lt_layout cluster_layout(const lts_params *p)
{
  int S = p->swizzle, M = p->clusters_m, N = p->clusters_n, L = p->tiles_l;
  if (S == 1)
    return lt_make_layout_sd(tup3(lt_int(M), lt_int(N), lt_int(L)),
                             p->raster_m ? tup3(lt_int(1), lt_int(M), lt_int(M * N))
                                         : tup3(lt_int(N), lt_int(1), lt_int(M * N)));
  if (p->raster_m)
    return lt_make_layout_sd(tup3(lt_int(M), tup2(lt_int(S), lt_int(N / S)), lt_int(L)),
                             tup3(lt_int(S), tup2(lt_int(1), lt_int(S * M)), lt_int(M * N)));
  return lt_make_layout_sd(tup3(tup2(lt_int(S), lt_int(M / S)), lt_int(N), lt_int(L)),
                           tup3(tup2(lt_int(1), lt_int(S * N)), lt_int(S), lt_int(M * N)));
}

/* The layout evaluated at the cluster coordinate of every work index gives the index back:
 * crd2idx(layout, lts_cluster_coord(i)) == i, for every i (the scheduler inverts the layout). */
static int layout_agrees(const lts_params *p, const lt_layout *l)
{
  for (int i = 0; i < (int)lts_num_clusters(p); ++i) {
    int m, n, z;
    lts_cluster_coord(p, i, &m, &n, &z);
    lt_val c = lt_crd2idx(*l, tup3(lt_int(m), lt_int(n), lt_int(z)));
    if (lt_value(&c) != i) return 0;
  }
  return 1;
}
// ANCHOR_END: cluster_layout

/* ---- the seed's five configurations ---------------------------------------------------------- */

typedef struct seed_config { const char *name, *title; int cm, cn, swizzle, raster_m; } seed_config;

// ANCHOR: seed_configs
#define SEED_TILES 4                   /* 4 x 4 x 1 tiles */
#define SEED_CTAS  8                   /* 8 CTAs resident at once */
static const seed_config SEEDS[5] = {
  { "raster-m",          "raster along M",                    1, 1, 1, 1 },
  { "raster-n",          "raster along N",                    1, 1, 1, 0 },
  { "swizzle-2",         "swizzle 2 (raster along M)",        1, 1, 2, 1 },
  { "cluster-2x1",       "cluster (2,1,1)",                   2, 1, 1, 1 },
  { "cluster-2x1-swz-2", "cluster (2,1,1), swizzle 2",        2, 1, 2, 1 },
};
// ANCHOR_END: seed_configs

/* Wave w of the schedule covers exactly the tiles m in [m0,m1), n in [n0,n1) (l = 0). */
static int wave_is(const sched *s, const int *iter_of, int w, int m0, int m1, int n0, int n1)
{
  for (int n = 0; n < s->p.tiles_n; ++n)
    for (int m = 0; m < s->p.tiles_m; ++m) {
      int in = m >= m0 && m < m1 && n >= n0 && n < n1;
      if ((iter_of[m + s->p.tiles_m * n] == w) != in) return 0;
    }
  return 1;
}

static int fails = 0;
static void check(int ok, const char *statement)
{
  printf("  %s %s\n", ok ? "yes:" : "NO: ", statement);
  fails += !ok;
}

/* A table of the tiles: A tile m (rows) by B tile n (columns), "cC wW" = CTA C in wave W. */
static void print_table(const sched *s, const int *cta_of, const int *iter_of)
{
  printf("         ");
  for (int n = 0; n < s->p.tiles_n; ++n) printf("   B%d  ", n);
  printf("\n");
  for (int m = 0; m < s->p.tiles_m; ++m) {
    printf("    A%d  ", m);
    for (int n = 0; n < s->p.tiles_n; ++n) {
      int t = m + s->p.tiles_m * n;
      printf(" c%d w%d ", cta_of[t], iter_of[t]);
    }
    printf("\n");
  }
}

// ANCHOR: seed_checks
/* The statements about each configuration, checked against the predicted schedule. */
static void seed_statements(int which, const sched *s, const int *cta_of, const int *iter_of)
{
  const int *c = cta_of;               /* c[m + 4n]: the CTA of tile (m,n) */
  switch (which) {
  case 0:
    check(wave_is(s, iter_of, 0, 0, 4, 0, 2), "wave 0 covers B0 and B1 across all A tiles (A0..A3)");
    check(c[0] == 0 && c[1] == 1 && c[2] == 2 && c[3] == 3, "CTAs 0..3 walk down A with B0; CTAs 4..7 with B1");
    break;
  case 1:
    check(wave_is(s, iter_of, 0, 0, 2, 0, 4), "wave 0 covers A0 and A1 across all B tiles (B0..B3)");
    check(c[0] == 0 && c[4] == 1 && c[8] == 2 && c[12] == 3, "CTAs 0..3 walk along B with A0; CTAs 4..7 with A1");
    break;
  case 2:
    check(wave_is(s, iter_of, 0, 0, 4, 0, 2), "wave 0 covers the same tiles as raster along M: B0 and B1, all A");
    check(c[0] == 0 && c[4] == 1 && c[1] == 2 && c[5] == 3, "but in another order: CTAs 0 and 1 take B0 and B1 of A0, CTAs 2 and 3 of A1");
    break;
  case 3:
    check(s->gx == 2 && s->gy == 1 && s->gz == 4, "8 CTAs are 4 active clusters of 2: the grid is (2,1,4)");
    check(wave_is(s, iter_of, 0, 0, 4, 0, 2), "wave 0 covers B0 and B1 across all A tiles");
    check(c[0] == 0 && c[1] == 1 && c[2] == 2 && c[3] == 3, "the 2 CTAs of a cluster take neighbouring A tiles of one B tile");
    break;
  case 4:
    check(wave_is(s, iter_of, 0, 0, 4, 0, 2), "wave 0 covers B0 and B1 across all A tiles");
    check(c[0] == 0 && c[1] == 1 && c[4] == 2 && c[5] == 3, "cluster 0 takes A0,A1 of B0, cluster 1 takes A0,A1 of B1");
    break;
  }
}
// ANCHOR_END: seed_checks

static void seed_configs(const char *dir)
{
  int cta_of[16], iter_of[16];
  for (int i = 0; i < 5; ++i) {
    const seed_config *c = &SEEDS[i];
    int active = SEED_CTAS / (c->cm * c->cn);          /* clusters, not CTAs */
    sched s = make_sched(SEED_TILES, SEED_TILES, 1, c->cm, c->cn, c->swizzle, c->raster_m, active);
    predict(&s, cta_of, iter_of);
    lt_layout l = cluster_layout(&s.p);
    printf("%d. %s: %d active clusters of %d x %d CTAs -> grid (%d,%d,%d)\n",
           i + 1, c->title, active, c->cm, c->cn, s.gx, s.gy, s.gz);
    printf("  cluster order (m,n,l) -> work index: %s\n", lt_str(&l));
    printf("  crd2idx at every work index's cluster coordinate gives the index back: %s\n",
           layout_agrees(&s.p, &l) ? "agrees" : "DISAGREES");
    fails += !layout_agrees(&s.p, &l);
    print_table(&s, cta_of, iter_of);
    seed_statements(i, &s, cta_of, iter_of);
    if (dir) {
      char name[64];
      snprintf(name, sizeof name, "06_seed_%s.dat", c->name);
      FILE *f = lk_data_open(dir, name, "m n cta wave: the predicted schedule of 4 x 4 tiles, 8 CTAs", 0);
      if (f) {
        fprintf(f, "# %s\n", c->title);
        for (int n = 0; n < 4; ++n)
          for (int m = 0; m < 4; ++m) fprintf(f, "%d %d %d %d\n", m, n, cta_of[m + 4 * n], iter_of[m + 4 * n]);
        fclose(f);
      }
    }
  }
}

/* More active clusters than clusters of work: lts_grid launches only the clusters that have work. */
static void grid_cap(void)
{
  sched s = make_sched(2, 2, 1, 1, 1, 1, 1, SEED_CTAS);
  printf("2 x 2 tiles, %d active clusters: %lld clusters of work -> grid (%d,%d,%d), %d CTAs\n",
         SEED_CTAS, lts_num_clusters(&s.p), s.gx, s.gy, s.gz, s.gx * s.gy * s.gz);
}

// ANCHOR: square_wave
/* Exercise 1: 8 x 8 tiles and 16 CTAs.  Which A and B tiles does the first wave read?  Every A
 * tile it touches and every B tile it touches is read from memory once, then shared in L2. */
#define EX1_SWIZZLE  1
#define EX1_RASTER_M 1
static void square_wave(void)
{
  int cta_of[64], iter_of[64], a[8] = { 0 }, b[8] = { 0 }, na = 0, nb = 0;
  sched s = make_sched(8, 8, 1, 1, 1, EX1_SWIZZLE, EX1_RASTER_M, 16);
  predict(&s, cta_of, iter_of);
  for (int t = 0; t < 64; ++t)
    if (iter_of[t] == 0) { a[t % 8] = 1; b[t / 8] = 1; }
  for (int i = 0; i < 8; ++i) { na += a[i]; nb += b[i]; }
  printf("8 x 8 tiles, 16 CTAs, swizzle %d, raster along %s: wave 0 reads %d A tiles and %d B tiles\n",
         EX1_SWIZZLE, EX1_RASTER_M ? "M" : "N", na, nb);
}
// ANCHOR_END: square_wave

// ANCHOR: cluster_grid
/* Exercise 2: a 2 x 2 cluster on a GPU of 132 SMs, one CTA per SM, 16 x 16 tiles.
 * max_active_clusters counts clusters.  Not computed yet: see the exercise. */
static void cluster_2x2_grid(void)
{
  printf("cluster (2,2,1) on 132 SMs, 16 x 16 tiles: grid not computed yet (exercise 2)\n");
}
// ANCHOR_END: cluster_grid

/* ------------------------------------------------------------------------------------------------
 * The workload: a GEMM's memory traffic
 * ---------------------------------------------------------------------------------------------- */

// ANCHOR: tile_code
#define BM      128                    /* a tile of C is BM x BN */
#define BN      128
#define THREADS 512

/* C = (A 1)(1^T B): each tile of C reads the BM x K slab of A and the K x BN slab of B that a GEMM's
 * tile reads, sums A's rows and B's columns, and writes their outer product.  The traffic of a GEMM
 * with almost none of its arithmetic: its speed is the speed of its loads.
 *   A is (M,K) row-major, B is (K,N) row-major, C is (M,N) row-major, per batch l. */
typedef struct problem {
  const float *A, *B;
  float *C;
  int M, N, K, L;
} problem;

/* Where the tile (m, n, l) of a work item starts in A, B and C. */
__host__ __device__ static inline long long a_slab(const problem *pb, lts_work w)
{
  return (long long)w.m * BM * pb->K;
}
__host__ __device__ static inline long long b_slab(const problem *pb, lts_work w)
{
  (void)pb;
  return (long long)w.n * BN;
}
__host__ __device__ static inline long long c_tile(const problem *pb, lts_work w)
{
  return (long long)w.m * BM * pb->N + (long long)w.n * BN;
}
// ANCHOR_END: tile_code

/* ------------------------------------------------------------------------------------------------
 * GPU kernel
 * ---------------------------------------------------------------------------------------------- */

typedef struct tile_record {
  int cta, sm, iter, pad;
  unsigned long long start, end;       /* %globaltimer, ns */
} tile_record;

__device__ static inline unsigned long long global_ns(void)
{
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ static inline int sm_id(void)
{
  int s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

// ANCHOR: kernel
/* The persistent kernel: CuTeDSL's loop
 *     work = sched.initial_work_tile_info()
 *     while work.is_valid_tile: ...; sched.advance_to_next_work(); work = sched.get_current_work()
 * written with lts_work_at(p, gridDim.z, blockIdx, k).  rec (may be NULL) gets one record a tile. */
__global__ void __launch_bounds__(THREADS, 1)
slab_gemm(problem pb, lts_params p, tile_record *rec)
{
  __shared__ float row_sum[BM];
  __shared__ float col_part[THREADS / 32][BN];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int k = 0;; ++k) {
    lts_work w = lts_work_at(&p, gridDim.z, blockIdx.x, blockIdx.y, blockIdx.z, k);
    if (!w.valid) break;
    if (w.m >= p.tiles_m || w.n >= p.tiles_n) continue;           // rounded-up work: no tile
    unsigned long long t0 = global_ns();
    const float *A = pb.A + a_slab(&pb, w), *B = pb.B + b_slab(&pb, w);
    float *C = pb.C + c_tile(&pb, w);

    // rows of the A slab: a warp per row, float4 loads along k
    for (int r = warp; r < BM; r += THREADS / 32) {
      const float4 *row = (const float4 *)(A + (long long)r * pb.K);
      float s = 0;
#pragma unroll 4
      for (int q = lane; q < pb.K / 4; q += 32) { float4 v = row[q]; s += (v.x + v.y) + (v.z + v.w); }
      for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
      if (lane == 0) row_sum[r] = s;
    }
    // columns of the B slab: lane owns 4 columns, warp takes every 16th row of k
    float4 c4 = make_float4(0, 0, 0, 0);
#pragma unroll 4
    for (int kk = warp; kk < pb.K; kk += THREADS / 32) {
      float4 v = *(const float4 *)(B + (long long)kk * pb.N + 4 * lane);
      c4.x += v.x; c4.y += v.y; c4.z += v.z; c4.w += v.w;
    }
    col_part[warp][4 * lane + 0] = c4.x; col_part[warp][4 * lane + 1] = c4.y;
    col_part[warp][4 * lane + 2] = c4.z; col_part[warp][4 * lane + 3] = c4.w;
    __syncthreads();
    // the epilogue: C tile = row_sum x col_sum
    if (threadIdx.x < BN) {
      float s = 0;
      for (int q = 0; q < THREADS / 32; ++q) s += col_part[q][threadIdx.x];
      col_part[0][threadIdx.x] = s;
    }
    __syncthreads();
    for (int e = threadIdx.x; e < BM * BN / 4; e += THREADS) {
      int r = e / (BN / 4), c = 4 * (e % (BN / 4));
      float a = row_sum[r];
      float4 v = make_float4(a * col_part[0][c], a * col_part[0][c + 1], a * col_part[0][c + 2], a * col_part[0][c + 3]);
      *(float4 *)(C + (long long)r * pb.N + c) = v;
    }
    __syncthreads();                                              // smem is reused by the next tile
    if (rec && threadIdx.x == 0) {
      tile_record *t = &rec[w.m + p.tiles_m * (w.n + p.tiles_n * w.l)];
      t->cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
      t->sm = sm_id();
      t->iter = k;
      t->start = t0;
      t->end = global_ns();
    }
  }
}
// ANCHOR_END: kernel

/* ------------------------------------------------------------------------------------------------
 * Host: the tile code run on the host (no GPU needed) -- a batched problem
 * ---------------------------------------------------------------------------------------------- */

/* One tile, exactly as the kernel computes it, on the host. */
static void host_tile(const problem *pb, lts_work w)
{
  const float *A = pb->A + a_slab(pb, w), *B = pb->B + b_slab(pb, w);
  float *C = pb->C + c_tile(pb, w);
  float rs[BM], cs[BN];
  for (int r = 0; r < BM; ++r) { double s = 0; for (int q = 0; q < pb->K; ++q) s += A[(long long)r * pb->K + q]; rs[r] = (float)s; }
  for (int c = 0; c < BN; ++c) { double s = 0; for (int q = 0; q < pb->K; ++q) s += B[(long long)q * pb->N + c]; cs[c] = (float)s; }
  for (int r = 0; r < BM; ++r)
    for (int c = 0; c < BN; ++c) C[(long long)r * pb->N + c] = rs[r] * cs[c];
}

/* The reference: C[l](i,j) = (sum_k A[l](i,k)) * (sum_k B[l](k,j)), every element. */
static void reference(const problem *pb, float *C)
{
  double *rs = (double *)LK_MALLOC(sizeof(double) * pb->M), *cs = (double *)LK_MALLOC(sizeof(double) * pb->N);
  for (int l = 0; l < pb->L; ++l) {
    const float *A = pb->A + (long long)l * pb->M * pb->K, *B = pb->B + (long long)l * pb->K * pb->N;
    for (int i = 0; i < pb->M; ++i) { double s = 0; for (int q = 0; q < pb->K; ++q) s += A[(long long)i * pb->K + q]; rs[i] = s; }
    for (int j = 0; j < pb->N; ++j) cs[j] = 0;
    for (int q = 0; q < pb->K; ++q)
      for (int j = 0; j < pb->N; ++j) cs[j] += B[(long long)q * pb->N + j];
    for (int i = 0; i < pb->M; ++i)
      for (int j = 0; j < pb->N; ++j) C[((long long)l * pb->M + i) * pb->N + j] = (float)(rs[i] * cs[j]);
  }
  free(rs); free(cs);
}

// ANCHOR: batch_host_run
/* Exercise 3: a batch of L = 3 problems of 256 x 384 (2 x 3 tiles each), K = 64, scheduled with
 * swizzle 2 on 4 CTAs; the tile code runs on the host for every work item the scheduler gives. */
static void batch_host_run(void)
{
  const int M = 2 * BM, N = 3 * BN, K = 64, L = 3;
  size_t na = (size_t)L * M * K, nb = (size_t)L * K * N, nc = (size_t)L * M * N;
  float *A = (float *)LK_MALLOC(sizeof(float) * na), *B = (float *)LK_MALLOC(sizeof(float) * nb);
  float *C = (float *)LK_MALLOC(sizeof(float) * nc), *want = (float *)LK_MALLOC(sizeof(float) * nc);
  lk_fill_random(A, na, 61);
  lk_fill_random(B, nb, 62);
  for (size_t i = 0; i < nc; ++i) C[i] = NAN;
  problem pb = { A, B, C, M, N, K, L };
  sched s = make_sched(M / BM, N / BN, L, 1, 1, 2, 1, 4);
  for (int bz = 0; bz < s.gz; ++bz)
    for (int k = 0;; ++k) {
      lts_work w = lts_work_at(&s.p, s.gz, 0, 0, bz, k);
      if (!w.valid) break;
      if (w.m < s.p.tiles_m && w.n < s.p.tiles_n) host_tile(&pb, w);
    }
  reference(&pb, want);
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < nc; ++i)
    if (!(fabsf(C[i] - want[i]) <= 1e-3f * fmaxf(1.0f, fabsf(want[i])))) { if (!bad) first = i; bad++; }
  if (bad)
    printf("note batch host run: L = %d, %zu of %zu elements of C wrong, the first in batch %zu: "
           "the tile code ignores l (exercise 3)\n", L, bad, nc, first / ((size_t)M * N));
  else
    printf("PASS batch host run: L = %d batches of %d x %d, grid (%d,%d,%d), every element of C checked\n",
           L, M, N, s.gx, s.gy, s.gz);
  free(A); free(B); free(C); free(want);
}
// ANCHOR_END: batch_host_run

// ANCHOR: split_k
/* Exercise 4: 3 x 2 tiles of 8 k tiles each.  Choose EX4_CTAS so that the Stream-K schedule is
 * split-K by 4: every tile's k loop in 4 equal parts, each part a CTA's only unit. */
#define EX4_CTAS 6
static void split_k_by_4(void)
{
  const char *err;
  lts_params order;
  lts_sk_params sk;
  if (!lts_init(&order, 3, 2, 1, 1, 1, 1, 1, &err) ||
      !lts_sk_init(&sk, &order, 8, EX4_CTAS, lts_sk_default_tiles(6, EX4_CTAS, 8), &err)) {
    printf("ex4: 3 x 2 tiles of 8 k tiles on %d CTAs: refused: %s\n", EX4_CTAS, err);
    return;
  }
  printf("ex4: 3 x 2 tiles of 8 k tiles on %d CTAs, %d of them Stream-K:\n", EX4_CTAS, sk.sk_tiles);
  print_sk_units(&sk, "ex4 ");
}
// ANCHOR_END: split_k

/* ------------------------------------------------------------------------------------------------
 * Host: device verification and timing
 * ---------------------------------------------------------------------------------------------- */

typedef struct variant {
  const char *name;
  int cm, cn, swizzle, raster_m, persistent;
} variant;

// ANCHOR: variants
static const variant VARIANTS[] = {
  { "raster M, swizzle 1",  1, 1, 1, 1, 1 },
  { "raster M, swizzle 2",  1, 1, 2, 1, 1 },
  { "raster M, swizzle 4",  1, 1, 4, 1, 1 },
  { "raster M, swizzle 8",  1, 1, 8, 1, 1 },
  { "raster N, swizzle 1",  1, 1, 1, 0, 1 },
  { "raster N, swizzle 2",  1, 1, 2, 0, 1 },
  { "raster N, swizzle 4",  1, 1, 4, 0, 1 },
  { "raster N, swizzle 8",  1, 1, 8, 0, 1 },
  { "non-persistent, raster M, swizzle 1", 1, 1, 1, 1, 0 },
  { "non-persistent, raster M, swizzle 8", 1, 1, 8, 1, 0 },
  { "cluster (2,1,1), raster M, swizzle 1", 2, 1, 1, 1, 1 },   /* verified, not timed */
  { "cluster (2,2,1), raster M, swizzle 2", 2, 2, 2, 1, 1 },
};
#define N_TIMED    10
#define N_VARIANTS ((int)(sizeof VARIANTS / sizeof VARIANTS[0]))
// ANCHOR_END: variants

typedef struct launch {
  problem pb;
  sched s;
  int cluster;                         /* launch as real clusters (sm_90) */
  tile_record *rec;
} launch;

static void run_launch(void *ctx)
{
  launch *g = (launch *)ctx;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(g->s.gx, g->s.gy, g->s.gz);
  cfg.blockDim = dim3(THREADS, 1, 1);
  cudaLaunchAttribute attr[1];
  if (g->cluster) {
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = g->s.gx;
    attr[0].val.clusterDim.y = g->s.gy;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
  }
  LK_CHECK(cudaLaunchKernelEx(&cfg, slab_gemm, g->pb, g->s.p, g->rec));
  LK_LAUNCH();
}

// ANCHOR: active_clusters
/* max_active_clusters, as CuTe's host code asks the driver for it: clusters of CM x CN CTAs that
 * fit on the GPU at once (sm_90: cudaOccupancyMaxActiveClusters; before, CTAs per SM x SMs, and no
 * clusters).  The kernel is built for one CTA per SM, like a tensor-core GEMM whose shared memory
 * fills the SM. */
static int max_active_clusters(int cm, int cn, int *real_clusters)
{
  cudaDeviceProp prop;
  int dev;
  LK_CHECK(cudaGetDevice(&dev));
  LK_CHECK(cudaGetDeviceProperties(&prop, dev));
  *real_clusters = prop.major >= 9 && cm * cn > 1;
  if (*real_clusters) {
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = cm; attr[0].val.clusterDim.y = cn; attr[0].val.clusterDim.z = 1;
    cfg.gridDim = dim3(cm, cn, 1);
    cfg.blockDim = dim3(THREADS, 1, 1);
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    int n = 0;
    LK_CHECK(cudaOccupancyMaxActiveClusters(&n, slab_gemm, &cfg));
    return n;
  }
  int per_sm = 0;
  LK_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, slab_gemm, THREADS, 0));
  return per_sm * prop.multiProcessorCount / (cm * cn);
}
// ANCHOR_END: active_clusters

static launch make_launch(problem pb, const variant *v)
{
  launch g;
  int real = 0, active = max_active_clusters(v->cm, v->cn, &real);
  if (!v->persistent) active = 1 << 30;                 /* one CTA per tile: no wave limit */
  g.pb = pb;
  g.s = make_sched(pb.M / BM, pb.N / BN, pb.L, v->cm, v->cn, v->swizzle, v->raster_m, active);
  g.cluster = real;
  g.rec = NULL;
  return g;
}

// ANCHOR: verify
/* Run once with records; every tile exactly once, on the predicted CTA at the predicted iteration,
 * each CTA's tiles in the predicted order in time, every element of C right. */
static int verify(launch *g, const float *want, float *got, tile_record *d_rec, tile_record *h_rec,
                  int *cta_of, int *iter_of, const char *name)
{
  const lts_params *p = &g->s.p;
  int tiles = p->tiles_m * p->tiles_n * p->tiles_l;
  size_t nc = (size_t)g->pb.M * g->pb.N * g->pb.L;
  predict(&g->s, cta_of, iter_of);
  lk_poison(g->pb.C, nc * sizeof(float));
  LK_CHECK(cudaMemset(d_rec, 0xff, sizeof(tile_record) * tiles));    // cta -1: never ran
  g->rec = d_rec;
  run_launch(g);
  g->rec = NULL;
  LK_CHECK(cudaDeviceSynchronize());
  LK_CHECK(cudaMemcpy(h_rec, d_rec, sizeof(tile_record) * tiles, cudaMemcpyDeviceToHost));
  LK_CHECK(cudaMemcpy(got, g->pb.C, nc * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0, first = -1;
  for (int t = 0; t < tiles; ++t)
    if (h_rec[t].cta != cta_of[t] || h_rec[t].iter != iter_of[t]) { if (first < 0) first = t; bad++; }
  /* in time: a CTA's iteration k+1 starts after its iteration k ended */
  int late = 0, ctas = g->s.gx * g->s.gy * g->s.gz, iters = 0;
  for (int t = 0; t < tiles; ++t) if (iter_of[t] + 1 > iters) iters = iter_of[t] + 1;
  int *at = (int *)LK_MALLOC(sizeof(int) * (size_t)ctas * iters);              // (cta, iter) -> tile
  for (int i = 0; i < ctas * iters; ++i) at[i] = -1;
  for (int t = 0; t < tiles; ++t) if (!bad) at[cta_of[t] * iters + iter_of[t]] = t;
  for (int i = 0; i < ctas * iters && !bad; ++i)
    if (i % iters && at[i] >= 0 && at[i - 1] >= 0 && h_rec[at[i]].start < h_rec[at[i - 1]].end) late++;
  free(at);
  size_t wrong = lk_compare_float(got, want, nc, 1e-3, name);
  if (bad)
    printf("FAIL %s: %d of %d tiles not run as predicted; first (%d,%d): CTA %d iteration %d, predicted CTA %d iteration %d\n",
           name, bad, tiles, first % p->tiles_m, first / p->tiles_m, h_rec[first].cta, h_rec[first].iter, cta_of[first], iter_of[first]);
  if (late) printf("FAIL %s: %d tiles started before their CTA's previous tile ended\n", name, late);
  printf("%s %s: %d tiles, each once, on its predicted CTA in its predicted order; every element of C checked\n",
         bad || late || wrong ? "FAIL" : "PASS", name, tiles);
  return bad || late || wrong;
}
// ANCHOR_END: verify

static void write_timeline(FILE *f, const char *what, const tile_record *r, int tiles, int tiles_m)
{
  unsigned long long t0 = ~0ull;
  for (int t = 0; t < tiles; ++t) if (r[t].start < t0) t0 = r[t].start;
  for (int t = 0; t < tiles; ++t)
    fprintf(f, "\"%s\" %d %d %d %d %d %.3f %.3f\n", what, r[t].sm, r[t].cta, r[t].iter, t % tiles_m, t / tiles_m,
            (r[t].start - t0) * 1e-3, (r[t].end - t0) * 1e-3);
}

// ANCHOR: timeline
/* The timeline figure's data: a 4096 x 4096 corner of the problem (32 x 32 tiles), K = 2048, run
 * persistent (raster M, swizzle 1) and non-persistent, every tile's SM, CTA and times. */
static void timeline(problem pb, tile_record *d_rec, tile_record *h_rec, const char *dir)
{
  FILE *f = lk_data_open(dir, "06_timeline.dat", "launch sm cta iter m n start_us end_us: every tile of a 32 x 32-tile run", 1);
  if (!f) return;
  pb.M = pb.N = 4096;
  const int tiles = (pb.M / BM) * (pb.N / BN), which[2] = { 0, 8 };
  for (int i = 0; i < 2; ++i) {
    launch g = make_launch(pb, &VARIANTS[which[i]]);
    run_launch(&g);                                   /* warm-up */
    g.rec = d_rec;
    run_launch(&g);
    LK_CHECK(cudaMemcpy(h_rec, d_rec, sizeof(tile_record) * tiles, cudaMemcpyDeviceToHost));
    write_timeline(f, i ? "non-persistent" : "persistent", h_rec, tiles, pb.M / BM);
  }
  fclose(f);
}
// ANCHOR_END: timeline

static int device_part(int quick, int check_only, int profile, const char *dir)
{
  const int M = quick ? 2048 : 16384, N = M, K = quick ? 512 : 2048;
  size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
  float *hA = (float *)LK_MALLOC(sizeof(float) * na), *hB = (float *)LK_MALLOC(sizeof(float) * nb);
  lk_fill_random(hA, na, 6);
  lk_fill_random(hB, nb, 7);
  float *A, *B, *C;
  LK_CHECK(cudaMalloc(&A, sizeof(float) * na));
  LK_CHECK(cudaMalloc(&B, sizeof(float) * nb));
  LK_CHECK(cudaMalloc(&C, sizeof(float) * nc));
  LK_CHECK(cudaMemcpy(A, hA, sizeof(float) * na, cudaMemcpyHostToDevice));
  LK_CHECK(cudaMemcpy(B, hB, sizeof(float) * nb, cudaMemcpyHostToDevice));
  problem pb = { A, B, C, M, N, K, 1 };
  char dev[512];
  lk_device_stamp(dev, sizeof dev);
  printf("bench: device %s\n", dev);
  printf("workload: C (%d x %d) from A (%d x %d) and B (%d x %d), fp32, tiles %d x %d: %d tiles, A and B %zu MiB each\n",
         M, N, M, K, K, N, BM, BN, (M / BM) * (N / BN), na * 4 >> 20);

  if (profile) {                                      // for ncu: each schedule once, in order
    for (int v = 0; v < N_TIMED; ++v) {
      launch g = make_launch(pb, &VARIANTS[v]);
      printf("profile: %s\n", VARIANTS[v].name);
      fflush(stdout);
      run_launch(&g);
      LK_CHECK(cudaDeviceSynchronize());
    }
    return 0;
  }

  int tiles = (M / BM) * (N / BN), fails_dev = 0;
  float *want = (float *)LK_MALLOC(sizeof(float) * nc), *got = (float *)LK_MALLOC(sizeof(float) * nc);
  problem hp = { hA, hB, want, M, N, K, 1 };
  reference(&hp, want);
  tile_record *d_rec, *h_rec = (tile_record *)LK_MALLOC(sizeof(tile_record) * tiles);
  int *cta_of = (int *)LK_MALLOC(sizeof(int) * tiles), *iter_of = (int *)LK_MALLOC(sizeof(int) * tiles);
  LK_CHECK(cudaMalloc(&d_rec, sizeof(tile_record) * tiles));
  for (int v = 0; v < N_VARIANTS; ++v) {
    launch g = make_launch(pb, &VARIANTS[v]);
    fails_dev += verify(&g, want, got, d_rec, h_rec, cta_of, iter_of, VARIANTS[v].name);
  }
  if (dir && !fails_dev) timeline(pb, d_rec, h_rec, dir);

  if (!fails_dev && !check_only) {
    FILE *f = dir ? lk_data_open(dir, "06_schedules.dat", "schedule ms GB/s-from-L2-or-DRAM (A and B slabs read)", 1) : NULL;
    lk_timing opt = lk_timing_default();
    double bytes = (double)tiles * (BM + BN) * (double)K * sizeof(float);   /* slab bytes the SMs load */
    for (int v = 0; v < N_TIMED; ++v) {
      launch g = make_launch(pb, &VARIANTS[v]);
      double ms = lk_time_ms(run_launch, &g, &opt);
      printf("bench: %-38s grid (%d,%d,%5d)  %8.3f ms  %7.1f GB/s of slab loads\n", VARIANTS[v].name,
             g.s.gx, g.s.gy, g.s.gz, ms, bytes / (ms * 1e-3) / 1e9);
      if (f) fprintf(f, "\"%s\" %.4f %.1f\n", VARIANTS[v].name, ms, bytes / (ms * 1e-3) / 1e9);
    }
    if (f) fclose(f);
  }
  LK_CHECK(cudaFree(A)); LK_CHECK(cudaFree(B)); LK_CHECK(cudaFree(C)); LK_CHECK(cudaFree(d_rec));
  free(hA); free(hB); free(want); free(got); free(h_rec); free(cta_of); free(iter_of);
  return fails_dev;
}

/* ------------------------------------------------------------------------------------------------
 * main
 * ---------------------------------------------------------------------------------------------- */

static const char *USAGE =
  "usage: 06_scheduling [--data DIR] [--quick] [--check-only] [--profile]\n"
  "       06_scheduling --predict TM TN TL CM CN SWIZZLE RASTER ACTIVE   (RASTER: m or n)\n"
  "       06_scheduling --predict-sk TM TN TL SWIZZLE RASTER K_ITERS CTAS SK_TILES   (SK_TILES: a count or auto)\n";

static int positive(const lk_args *a, const char *s)
{
  char *end;
  long v = strtol(s, &end, 10);
  if (*s == 0 || *end != 0 || v < 1 || v > 1000000) lk_usage_error(a, "--predict wants positive integers, not %s", s);
  return (int)v;
}

// ANCHOR: predict_main
static int predict_main(const lk_args *a)
{
  if (a->argc != 10) lk_usage_error(a, "%s takes 8 values", "--predict");
  char **v = a->argv + 2;
  int tm = positive(a, v[0]), tn = positive(a, v[1]), tl = positive(a, v[2]);
  int cm = positive(a, v[3]), cn = positive(a, v[4]), swizzle = positive(a, v[5]);
  if (strcmp(v[6], "m") != 0 && strcmp(v[6], "n") != 0) lk_usage_error(a, "RASTER is m or n, not %s", v[6]);
  int active = positive(a, v[7]);
  if ((long long)tm * tn * tl > 1000000) lk_usage_error(a, "too many tiles: %s", "at most a million");
  sched s = make_sched(tm, tn, tl, cm, cn, swizzle, v[6][0] == 'm', active);
  print_predict(&s);
  return 0;
}
// ANCHOR_END: predict_main

// ANCHOR: predict_sk
/* --predict-sk: the Stream-K schedule, one line per unit (print_sk_units). */
static int predict_sk_main(const lk_args *a)
{
  if (a->argc != 10) lk_usage_error(a, "%s takes 8 values", "--predict-sk");
  char **v = a->argv + 2;
  int tm = positive(a, v[0]), tn = positive(a, v[1]), tl = positive(a, v[2]), swizzle = positive(a, v[3]);
  if (strcmp(v[4], "m") != 0 && strcmp(v[4], "n") != 0) lk_usage_error(a, "RASTER is m or n, not %s", v[4]);
  int k_iters = positive(a, v[5]), ctas = positive(a, v[6]);
  if ((long long)tm * tn * tl > 1000000) lk_usage_error(a, "too many tiles: %s", "at most a million");
  int tiles = tm * tn * tl;
  int sk_tiles = strcmp(v[7], "auto") == 0 ? lts_sk_default_tiles(tiles, ctas, k_iters)
               : strcmp(v[7], "0") == 0 ? 0 : positive(a, v[7]);
  const char *err;
  lts_params order;
  lts_sk_params sk;
  if (!lts_init(&order, tm, tn, tl, 1, 1, swizzle, v[4][0] == 'm', &err) ||
      !lts_sk_init(&sk, &order, k_iters, ctas, sk_tiles, &err)) {
    fprintf(stderr, "error: %s\n", err);
    return 2;
  }
  printf("%d tiles of %d k tiles on %d CTAs: %d data-parallel (waves: %d), %d Stream-K (%lld iterations, %lld to %lld a CTA)\n",
         tiles, k_iters, ctas, sk.dp_tiles, sk.dp_tiles / ctas, sk.sk_tiles, sk.sk_iters,
         sk.sk_iters / ctas, (sk.sk_iters + ctas - 1) / ctas);
  print_sk_units(&sk, "");
  return 0;
}
// ANCHOR_END: predict_sk

int main(int argc, char **argv)
{
  lk_args a = { argc, argv, USAGE };
  if (argc > 1 && strcmp(argv[1], "--predict") == 0) return predict_main(&a);
  if (argc > 1 && strcmp(argv[1], "--predict-sk") == 0) return predict_sk_main(&a);
  const char *known[] = { "--data=", "--quick", "--check-only", "--profile", NULL };
  lk_args_check(&a, known);
  const char *dir = lk_arg_dir(&a, "--data");

  seed_configs(dir);
  grid_cap();
  square_wave();
  cluster_2x2_grid();
  batch_host_run();
  split_k_by_4();
  if (fails) { printf("FAIL: %d statements about the schedules do not hold\n", fails); return 1; }
  if (!lk_device_present()) return 0;

  int f = device_part(lk_arg_flag(&a, "--quick"), lk_arg_flag(&a, "--check-only"), lk_arg_flag(&a, "--profile"), dir);
  printf("%s\n", f ? "FAIL" : "PASS: every tile ran once, where and when the scheduler said");
  return f ? 1 : 0;
}
