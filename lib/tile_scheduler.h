/* tile_scheduler.h -- a static persistent tile scheduler, in C (header-only, host and device).
 *
 * The same rules as CuTeDSL's StaticPersistentTileScheduler and PersistentTileSchedulerParams:
 *
 *   - the output is TM x TN x TL tiles; clusters are CM x CN CTAs (cluster k is 1);
 *   - the work is counted in clusters: (ceil(TM/CM), ceil(TN/CN), TL) clusters, laid out
 *     column-major -- or, with swizzle S > 1, swizzled: the cluster count along the raster's
 *     minor direction is rounded up to a multiple of S, and S neighbouring clusters of that
 *     direction are taken before moving along the major one -- a layout of the book's algebra:
 *     raster m: (M,(S,N/S),L):(S,(1,S*M),M*N); raster n: ((S,M/S),N,L):((1,S*N),S,M*N);
 *   - the grid is (CM, CN, P): P persistent clusters, the fewest of (all clusters, the active
 *     clusters that fit on the GPU at once) -- never more CTAs than the work has;
 *   - a cluster starts at work index blockIdx.z and advances by P; the work index becomes a
 *     cluster coordinate (m, n, l), and the CTA's place in its cluster is added:
 *     tile = cluster_coord * cluster_shape + (blockIdx.x % CM, blockIdx.y % CN, 0);
 *   - a work index at or past the number of (rounded) clusters is not valid: the walk ends.
 *
 * With S == 1 the raster order picks which of m and n varies fastest; with S > 1 it picks the
 * direction that is swizzled in groups of S (raster along m: for each group of S columns of
 * clusters, walk down m, taking the S clusters of a row before the next row).
 *
 * The host uses this to predict a schedule (labs/06_scheduling --predict); a persistent kernel
 * uses the very same functions to walk it.
 */
#ifndef LT_TILE_SCHEDULER_H
#define LT_TILE_SCHEDULER_H

#if defined(__CUDACC__)
#define LTS_FN __host__ __device__ static inline
#else
#define LTS_FN static inline
#endif

typedef struct lts_params {
  int tiles_m, tiles_n, tiles_l;       /* output tiles along m, n and the batch l */
  int cluster_m, cluster_n;            /* CTAs per cluster along m and n */
  int swizzle;                         /* 1: no swizzle */
  int raster_m;                        /* 1: raster along m, 0: along n */
  int clusters_m, clusters_n;          /* clusters along m and n, after any rounding up */
} lts_params;

typedef struct lts_work {
  int m, n, l;                         /* the tile's coordinate */
  int valid;                           /* 0 once the walk has passed the last cluster */
  int idx;                             /* the linear work index it came from */
} lts_work;

LTS_FN int lts__ceil_div(int a, int b) { return (a + b - 1) / b; }

/* The parameters, or 0 with why in *err (a cluster k other than 1 is not accepted either way:
 * there is no argument for it). */
LTS_FN int lts_init(lts_params *p, int tiles_m, int tiles_n, int tiles_l, int cluster_m, int cluster_n,
                    int swizzle, int raster_m, const char **err)
{
  *err = 0;
  if (tiles_m < 1 || tiles_n < 1 || tiles_l < 1) { *err = "tile counts must be at least 1"; return 0; }
  if (cluster_m < 1 || cluster_n < 1) { *err = "the cluster shape must be at least 1 x 1"; return 0; }
  if (swizzle < 1) { *err = "the swizzle size must be at least 1"; return 0; }
  p->tiles_m = tiles_m; p->tiles_n = tiles_n; p->tiles_l = tiles_l;
  p->cluster_m = cluster_m; p->cluster_n = cluster_n;
  p->swizzle = swizzle; p->raster_m = raster_m != 0;
  p->clusters_m = lts__ceil_div(tiles_m, cluster_m);
  p->clusters_n = lts__ceil_div(tiles_n, cluster_n);
  if (swizzle > 1) {                   /* round the swizzled direction up to a multiple of S */
    if (p->raster_m) p->clusters_n = lts__ceil_div(p->clusters_n, swizzle) * swizzle;
    else             p->clusters_m = lts__ceil_div(p->clusters_m, swizzle) * swizzle;
  }
  return 1;
}

/* Clusters of work (rounded): the walk is valid below this. */
LTS_FN long long lts_num_clusters(const lts_params *p)
{
  return (long long)p->clusters_m * p->clusters_n * p->tiles_l;
}

/* The grid (CM, CN, P) for `active` clusters resident at once (CuTe's max_active_clusters). */
LTS_FN void lts_grid(const lts_params *p, int active, int *gx, int *gy, int *gz)
{
  long long per_cluster = (long long)p->cluster_m * p->cluster_n;
  long long in_problem = lts_num_clusters(p) * per_cluster;     /* CTAs the work has */
  long long per_wave = (long long)active * per_cluster;
  long long persistent = in_problem < per_wave ? in_problem : per_wave;
  *gx = p->cluster_m;
  *gy = p->cluster_n;
  *gz = (int)(persistent / per_cluster);
}

/* A linear work index as a cluster coordinate (m, n, l). */
LTS_FN void lts_cluster_coord(const lts_params *p, int idx, int *cm, int *cn, int *cl)
{
  int S = p->swizzle, M = p->clusters_m, N = p->clusters_n;
  if (S == 1) {                        /* major = fastest, then minor, then l */
    int major = p->raster_m ? M : N, minor = p->raster_m ? N : M;
    int a = idx % major, rest = idx / major, b = rest % minor, l = rest / minor;
    *cm = p->raster_m ? a : b;
    *cn = p->raster_m ? b : a;
    *cl = l;
  } else if (p->raster_m) {            /* ((M,(S,N/S),L) : (S,(1,S*M),M*N)) */
    *cm = (idx / S) % M;
    *cn = idx % S + S * ((idx / (S * M)) % (N / S));
    *cl = (idx / (M * N)) % p->tiles_l;
  } else {                             /* (((S,M/S),N,L) : ((1,S*N),S,M*N)) */
    *cn = (idx / S) % N;
    *cm = idx % S + S * ((idx / (S * N)) % (M / S));
    *cl = (idx / (M * N)) % p->tiles_l;
  }
}

/* The work of the CTA at (bx, by, bz) of the grid, at iteration k of its walk. */
LTS_FN lts_work lts_work_at(const lts_params *p, int grid_z, int bx, int by, int bz, int k)
{
  lts_work w;
  w.idx = bz + k * grid_z;
  w.valid = (long long)w.idx < lts_num_clusters(p);
  int cm, cn, cl;
  lts_cluster_coord(p, w.idx, &cm, &cn, &cl);
  w.m = cm * p->cluster_m + bx % p->cluster_m;
  w.n = cn * p->cluster_n + by % p->cluster_n;
  w.l = cl;
  return w;
}

/* ------------------------------------------------------------------------------------------------
 * Stream-K: the k loops shared out as well
 *
 * When the tiles do not fill the last wave (T tiles, P persistent CTAs, T % P != 0), or when there
 * are fewer tiles than CTAs, whole tiles leave SMs idle.  Stream-K counts the work in k iterations
 * (one k tile of one output tile) instead:
 *
 *   - the tiles are taken in the order above (raster, swizzle; clusters of 1 x 1); the first
 *     dp_tiles of them (a multiple of P) are data-parallel: CTA c takes tiles c, c + P, ...;
 *     the rest, sk_tiles (by default those of the last, partial wave, or of the last two waves
 *     where the last holds fewer tiles than half the CTAs), are Stream-K tiles;
 *   - the I = sk_tiles * k_iters iterations of the other tiles, tile by tile and k tile by k tile,
 *     are cut into P contiguous ranges, CTA c taking [floor(c I / P), floor((c+1) I / P)): every
 *     CTA gets the same number of iterations, give or take one;
 *   - a range that crosses tile boundaries is walked as units, each a tile and a k range in it:
 *     first the whole tiles that follow the range's first tile, the last of them first; then the
 *     range's last tile, where the range ends inside it (its k tiles from 0); then the range's
 *     first tile, whose part runs to the tile's end.  So every CTA starts its whole tiles at the
 *     same moment, right after its data-parallel waves, and the CTAs that read the same panels of
 *     A and B read them at about the same time, as in the data-parallel waves;
 *   - the CTA whose unit holds the last k iteration of a tile owns it: it adds, in descending k,
 *     the partial sums of the `peers` earlier CTAs that hold the rest of the tile's k loop, and
 *     writes the tile.  A CTA has at most one unit that ends before a tile's end (the range's last
 *     tile, or the one tile the range lies in), and only whole tiles come before it: that CTA
 *     stores its partial sums in workspace slot `cta` and raises its flag; an owner with peers is
 *     always its CTA's last unit, so the sums it waits for are written before it gets there, or at
 *     about the same time.
 *
 * The result does not depend on timing: every tile's sum is taken in the same order every run.
 * An owner waits only for earlier CTAs' partial units, which wait for nothing and follow only
 * whole tiles, which wait for nothing either, so the waits cannot form a cycle -- provided all P
 * CTAs are resident at once (a persistent grid).
 *
 * Split-K is the special case sk_tiles = T, P = T * s with s dividing k_iters: every range is one
 * of the s equal parts of one tile's k loop.
 * ---------------------------------------------------------------------------------------------- */

typedef struct lts_sk_params {
  lts_params order;                    /* the order of the tiles (clusters of 1 x 1) */
  int k_iters;                         /* k tiles per output tile */
  int ctas;                            /* P: the persistent CTAs */
  int dp_tiles;                        /* the data-parallel tiles, first in the order */
  int sk_tiles;                        /* the Stream-K tiles, after them */
  long long sk_iters;                  /* sk_tiles * k_iters */
} lts_sk_params;

typedef struct lts_sk_unit {
  int m, n, l;                         /* the tile */
  int tile;                            /* its number in the order */
  int k_begin, k_end;                  /* the k tiles [k_begin, k_end) of this unit */
  int valid;                           /* 0 once the CTA's work is done */
  int peers;                           /* the owner (k_end == k_iters, k_begin > 0): the earlier CTAs
                                          holding partial sums of this tile; 0 for every other unit */
} lts_sk_unit;

/* Tiles in the problem (the order may hold more: a swizzle rounds up). */
LTS_FN int lts__tiles(const lts_params *p) { return p->tiles_m * p->tiles_n * p->tiles_l; }

/* The Stream-K tiles for T tiles of k_iters k tiles on P CTAs: none when the tiles fill whole
 * waves; all of them when T < P; otherwise the tiles of the last, partial wave -- or, where those
 * are fewer than half the CTAs (a CTA's share under half a tile, so that a tile is cut into three
 * parts or more and its owner adds them one after another), or hold fewer k iterations than there
 * are CTAs, one full wave more, so that every CTA's share is one to two tiles. */
LTS_FN int lts_sk_default_tiles(int tiles, int ctas, int k_iters)
{
  int r = tiles % ctas;
  if (r == 0) return 0;
  if (tiles < ctas) return tiles;
  if (2 * r >= ctas && (long long)r * k_iters >= ctas) return r;
  return r + ctas;
}

/* The parameters, or 0 with why in *err.  `order` comes from lts_init with clusters of 1 x 1 and a
 * swizzle that rounds nothing up (S divides the tile count of its direction). */
LTS_FN int lts_sk_init(lts_sk_params *p, const lts_params *order, int k_iters, int ctas, int sk_tiles,
                       const char **err)
{
  *err = 0;
  int T = lts__tiles(order);
  if (order->cluster_m != 1 || order->cluster_n != 1) { *err = "Stream-K takes clusters of 1 x 1"; return 0; }
  if ((long long)order->clusters_m * order->clusters_n != (long long)order->tiles_m * order->tiles_n) {
    *err = "the swizzle must divide the tile count of its direction"; return 0;
  }
  if (k_iters < 1) { *err = "k_iters must be at least 1"; return 0; }
  if (ctas < 1) { *err = "the CTA count must be at least 1"; return 0; }
  if (sk_tiles < 0 || sk_tiles > T) { *err = "sk_tiles must be between 0 and the tile count"; return 0; }
  if ((T - sk_tiles) % ctas != 0) { *err = "the data-parallel tiles must fill whole waves of the CTAs"; return 0; }
  if (sk_tiles > 0 && (long long)sk_tiles * k_iters < ctas) {
    *err = "fewer Stream-K iterations than CTAs: some CTA would get none"; return 0;
  }
  p->order = *order;
  p->k_iters = k_iters;
  p->ctas = ctas;
  p->sk_tiles = sk_tiles;
  p->dp_tiles = T - sk_tiles;
  p->sk_iters = (long long)sk_tiles * k_iters;
  return 1;
}

/* Where CTA c's Stream-K range starts, in iterations of the Stream-K tiles (c may be P). */
LTS_FN long long lts_sk_start(const lts_sk_params *p, int c) { return (long long)c * p->sk_iters / p->ctas; }

/* The CTA whose range holds Stream-K iteration x (0 <= x < I): the last c with start(c) <= x. */
LTS_FN int lts_sk_cta_of(const lts_sk_params *p, long long x)
{
  return (int)(((x + 1) * p->ctas + p->sk_iters - 1) / p->sk_iters) - 1;
}

// ANCHOR: sk_unit
/* Unit i of CTA c's walk: first its data-parallel tiles, then the units of its Stream-K range:
 * the whole tiles after the range's first, last first; then the range's last tile, where the range
 * ends inside it; then the range's first tile. */
LTS_FN lts_sk_unit lts_sk_unit_at(const lts_sk_params *p, int c, int i)
{
  lts_sk_unit u;
  int waves = p->dp_tiles / p->ctas, j;
  u.valid = 1;
  u.peers = 0;
  if (i < waves) {                                     /* a whole tile */
    j = c + i * p->ctas;
    u.k_begin = 0;
    u.k_end = p->k_iters;
  } else {
    long long b = lts_sk_start(p, c), e = lts_sk_start(p, c + 1), K = p->k_iters;
    long long first = b / K, last = (e - 1) / K, q = i - waves, t;   /* the range's first and last tile */
    if (e % K == 0) t = last - q;                    /* every tile after the first is whole: last first */
    else t = q < last - first - 1 ? last - 1 - q     /* the whole tiles between, last first; */
           : q == last - first - 1 ? last            /* then the last tile's part, from k tile 0; */
           : q == last - first ? first : -1;         /* then the first tile */
    if (p->sk_tiles == 0 || e <= b || t < first) { u.valid = 0; t = 0; }
    u.k_begin = (int)((b > t * K ? b : t * K) - t * K);
    u.k_end = (int)((e < (t + 1) * K ? e : (t + 1) * K) - t * K);
    if (u.valid && u.k_end == K && u.k_begin > 0)      /* the owner: CTAs before it, back to k tile 0 */
      u.peers = c - lts_sk_cta_of(p, t * K);
    j = p->dp_tiles + (int)t;
  }
  u.tile = j;
  lts_cluster_coord(&p->order, j, &u.m, &u.n, &u.l);
  return u;
}
// ANCHOR_END: sk_unit

#endif /* LT_TILE_SCHEDULER_H */
