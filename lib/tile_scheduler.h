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

#endif /* LT_TILE_SCHEDULER_H */
