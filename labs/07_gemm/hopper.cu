/* hopper.cu -- the host side of the Hopper steps (11 to 17, 19 to 22): tensor maps, padded copies where
 * TMA's alignment rules are not met, and the choice between them and the predicated step 9.
 *
 * TMA reads a matrix through a tensor map (cuTensorMapEncodeTiled), which needs the base address
 * and every column's start 16-byte aligned: the leading dimension times 2 bytes a multiple of 16,
 * i.e. ld a multiple of 8 bf16.  A leading dimension of 4095 or 4097 is not.  Then there are two
 * ways, chosen per case:
 *   padded:     copy the operand into a buffer whose leading dimension is rounded up to a multiple
 *               of 64, 128 bytes (cudaMemcpy2DAsync, one pass over the operand; pad.cu says why 64),
 *               and run the Hopper kernel on the copy; the map's dimensions are still (M,K), so the
 *               padding is never read.
 *   predicated: run step 8's kernel on the operands as they are: it loads the 16-byte chunks
 *               that are whole and aligned with cp.async and every other chunk element by
 *               element, each element tested against the matrix's extent (gemm_8_predicated).
 * (Steps 8 and 9 themselves always pad an unaligned operand; the predicated kernel is their
 * slow path, kept for this choice.)  The runner's --choice times both ways at the same shapes.
 * Measured on an H200: the padded copy wins from 255^3 up (1.6x at 255^3, 6x at 4095^3, and on
 * every skinny and short-K shape tried, e.g. 33 x 33 x 5001, 4095 x 4095 x 127); the predicated
 * kernel wins only on tiny problems, 1^3 to 63^3 (6 us against 14 us: the copies' fixed cost).
 * So: pad, unless K < GH_MIN_K and M N K < GH_TINY_MNK = 2^20.  (Skinny problems with a long K,
 * such as 1 x 1277 x 1377, are not tiny in this sense: the predicated kernel ran them at 0.4 of
 * step 9, the padded Hopper kernel at 1.5.)
 * One more case goes elsewhere: K < GH_MIN_K.  With one or two k tiles the GEMM is the writing of C,
 * which step 9 does through shared memory with 16-byte stores and steps 11-16 from registers with
 * 4-byte ones; measured at K = 1, those steps ran at 0.59 to 0.87 of step 9, so below K = 128 the
 * launchers call step 9.  All but one: the best path (step 17's launcher, which sets gh_short_k)
 * keeps such a problem where A and B need no padded copy.  Most of its kernels write C by TMA
 * stores, and it measured faster than step 9 (H100, ratios to cuBLAS, step 9 in brackets):
 * 8192 x 8192 x 64 0.99 (0.89), 8192 x 8192 x 96 0.96 (0.85), 4096 x 4096 x 64 1.02 (0.88),
 * 3000 x 3000 x 64 0.86 (0.80), 2048 x 2048 x 64 1.25 (1.09), 1024 x 1024 x 64 2.22 (1.20), 64^3 2.57
 * (1.54), 16 x 4096 x 64 2.77 (1.48), level at 4096 x 4096 x 8 (1.06); in an earlier run with the rule
 * gone for every launcher, 16384 x 4096 x 64 0.97 (0.89), 4096 x 4096 x 127 1.60 (1.26),
 * 8192 x 8192 x 1 0.91 (0.86), level at 8192 x 8192 x 32 (0.97), and where A and B needed padded
 * copies, behind: 4095 x 4095 x 127 0.89 (1.07), 2049 x 4787 x 1 0.52 (0.64).
 */
#include "hopper.h"
#include "labkit.h"
#include <cudaTypedefs.h>

int gh_raster_m = 1, gh_swizzle = 4;   /* the CTA order of steps 13 and 14, chosen by measurement */
int gh_force = 0;
int gh_short_k = 0;
int gh_clusters_resident = 0;
int gh_pdl = 1;
gh_timeline gh_tl;                     /* no timeline: marks NULL */

#define GH_TINY_MNK (1 << 20)          /* below, with K < GH_MIN_K: an unaligned operand goes to step 8 */
#define GH_MIN_K 128                    /* below: step 9 (the GEMM is the writing of C), but see gh_short_k */

static PFN_cuTensorMapEncodeTiled_v12000 encode_fn;

static int gh_is_sm90(void)
{
  static int cached = -1;
  if (cached < 0) {
    int dev = 0, major = 0, minor = 0;
    cached = cudaGetDevice(&dev) == cudaSuccess &&
             cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == cudaSuccess &&
             cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) == cudaSuccess &&
             major == 9 && minor == 0;
    if (cached) {
      cudaDriverEntryPointQueryResult q;
      void *fn = NULL;
      if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q) != cudaSuccess ||
          q != cudaDriverEntryPointSuccess || !fn) {
        fprintf(stderr, "hopper.cu: cuTensorMapEncodeTiled not found in the driver: the Hopper steps use step 9\n");
        cached = 0;
      } else {
        encode_fn = (PFN_cuTensorMapEncodeTiled_v12000)fn;
      }
    }
  }
  return cached;
}

// ANCHOR: launch_config
void gh_launch_config(cudaLaunchConfig_t *cfg, cudaLaunchAttribute attr[2], dim3 grid, int threads, size_t smem,
                      int cluster)
{
  static const cudaLaunchConfig_t plain = {};
  static const cudaLaunchAttribute none = {};
  *cfg = plain;
  attr[0] = attr[1] = none;
  cfg->gridDim = grid;
  cfg->blockDim = dim3(threads);
  cfg->dynamicSmemBytes = smem;                        // stream 0: the legacy default stream
  cfg->attrs = attr;
  if (gh_pdl && gh_is_sm90()) {                        // PDL needs sm_90 (step 28 runs on any GPU)
    attr[cfg->numAttrs].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[cfg->numAttrs++].val.programmaticStreamSerializationAllowed = 1;
  }
  if (cluster > 1) {
    attr[cfg->numAttrs].id = cudaLaunchAttributeClusterDimension;
    attr[cfg->numAttrs].val.clusterDim.x = cluster;
    attr[cfg->numAttrs].val.clusterDim.y = 1;
    attr[cfg->numAttrs++].val.clusterDim.z = 1;
  }
}
// ANCHOR_END: launch_config

int gh_sm_count(void)
{
  static int n = 0;
  if (!n) {
    int dev = 0;
    LK_CHECK(cudaGetDevice(&dev));
    LK_CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev));
  }
  return n;
}

/* A column-major bf16 matrix (rows, cols) with leading dimension ld, read in boxes of
 * (box_rows, box_cols), 128-byte swizzled; elements outside (rows, cols) read as zero. */
static int encode(CUtensorMap *map, const bf16 *p, int rows, int cols, int ld, int box_rows, int box_cols)
{
  cuuint64_t dims[2] = { (cuuint64_t)rows, (cuuint64_t)cols };
  cuuint64_t strides[1] = { (cuuint64_t)ld * 2 };
  cuuint32_t box[2] = { (cuuint32_t)box_rows, (cuuint32_t)box_cols };
  cuuint32_t estr[2] = { 1, 1 };
  CUresult r = encode_fn(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, (void *)p, dims, strides, box, estr,
                         CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    fprintf(stderr, "hopper.cu: cuTensorMapEncodeTiled(%d x %d, ld %d) failed (%d)\n", rows, cols, ld, (int)r);
    return 0;
  }
  return 1;
}

static int tma_ready(const bf16 *p, int ld) { return gemm_aligned16(p, ld, 2); }

/* C (fp32, column-major, M x N, ld ldc) for TMA stores in boxes of (32 rows, 32 columns), 128-byte
 * swizzled in shared memory: 0 when C or its columns are not 16-byte aligned */
int gh_encode_c(CUtensorMap *map, float *C, int M, int N, int ldc)
{
  if (!gh_is_sm90() || !gemm_aligned16(C, ldc, 4)) return 0;
  cuuint64_t dims[2] = { (cuuint64_t)M, (cuuint64_t)N };
  cuuint64_t strides[1] = { (cuuint64_t)ldc * 4 };
  cuuint32_t box[2] = { 32, 32 };
  cuuint32_t estr[2] = { 1, 1 };
  return encode_fn(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)C, dims, strides, box, estr,
                   CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

/* The TMA-store epilogue where C need not be read and TMA may write it: beta == 0, C and ldc 16-byte
 * aligned, and M a multiple of 4 (measured: with M = 2783, ldc = 2784, the TMA store wrote row 2783,
 * past M, in the 16-byte chunk it shares with rows 2780-2782); and where it pays: a tile's epilogue
 * weighs about 1/ktiles of its time, and with K > GH_TMA_C_MAX_K the staged epilogue measured
 * slower than the direct one (17_tma_store.cu) */
int gh_tma_c_may(CUtensorMap *map, int M, int N, float beta, float *C, int ldc)
{
  memset(map, 0, sizeof *map);
  return beta == 0.0f && M % 4 == 0 && gh_encode_c(map, C, M, N, ldc);
}
int gh_tma_c(CUtensorMap *map, int M, int N, int K, float beta, float *C, int ldc)
{
  if (K > GH_TMA_C_MAX_K) { memset(map, 0, sizeof *map); return 0; }
  return gh_tma_c_may(map, M, N, beta, C, ldc);
}

// ANCHOR: choice
/* Where the Hopper path is not taken: the kernel gh_route named. */
void gh_fallback(const gh_operands *op, int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb,
                 float beta, float *C, int ldc)
{
  if (op->fallback == 8) gemm_8_predicated(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
  else gemm_9_mma_multistage_epilogue(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

/* below GH_MIN_K: step 9, or the predicated step 8 for a tiny problem with an unaligned operand */
static int short_k_route(int M, int N, int K, int unaligned)
{
  return unaligned && (double)M * N * K < GH_TINY_MNK ? 8 : 9;
}
int gh_route(int M, int N, int K, const bf16 *A, int lda, const bf16 *B, int ldb)
{
  if (!gh_is_sm90()) return 9;                       /* no wgmma here */
  int unaligned = !tma_ready(A, lda) || !tma_ready(B, ldb);
  if (gh_force == 2) return unaligned ? 8 : 1;
  if (gh_force == 1) return 1;
  // below K = 128, step 9 or 8; but the best path (gh_short_k) keeps the problem where no copy is needed
  if (K < GH_MIN_K && (unaligned || !gh_short_k)) return short_k_route(M, N, K, unaligned);
  return 1;
}

int gh_prepare(int M, int N, int K, const bf16 *A, int lda, const bf16 *B, int ldb, gh_operands *op)
{
  return gh_prepare_box(M, N, K, A, lda, B, ldb, op, 128);
}
/* gh_route's answer in op->fallback; where it is 1, *A and *B (and their leading dimensions) as TMA
 * reads them -- padded copies where they are not 16-byte aligned -- and op->rows128 */
static int tma_operands(int M, int N, int K, const bf16 **A, int *lda, const bf16 **B, int *ldb, gh_operands *op)
{
  op->fallback = gh_route(M, N, K, *A, *lda, *B, *ldb);
  op->rows128 = 0;
  if (op->fallback != 1) return 0;
  if (!tma_ready(*A, *lda)) *A = gemm_pad_bf16(0, *A, lda, M, K);   /* pad.cu */
  if (!tma_ready(*B, *ldb)) *B = gemm_pad_bf16(1, *B, ldb, K, N);
  op->rows128 = (uintptr_t)*A % 128 == 0 && (uintptr_t)*B % 128 == 0 && *lda % 64 == 0 && *ldb % 64 == 0;
  return 1;
}
int gh_prepare_box(int M, int N, int K, const bf16 *A, int lda, const bf16 *B, int ldb, gh_operands *op, int b_cols)
{
  return tma_operands(M, N, K, &A, &lda, &B, &ldb, op) && encode(&op->a, A, M, K, lda, 64, GH_BK) &&
         encode(&op->b, B, K, N, ldb, GH_BK, b_cols);
}
// ANCHOR_END: choice
int gh_prepare_slices(int M, int N, int K, const bf16 *A, int lda, const bf16 *B, int ldb, gh_operands *op,
                      gh_operands *slices, int slice)
{
  int ready = tma_operands(M, N, K, &A, &lda, &B, &ldb, op);
  slices->fallback = op->fallback;
  slices->rows128 = op->rows128;
  return ready && encode(&op->a, A, M, K, lda, 64, GH_BK) && encode(&op->b, B, K, N, ldb, GH_BK, 64) &&
         encode(&slices->a, A, M, K, lda, 64, slice) && encode(&slices->b, B, K, N, ldb, GH_BK, slice);
}

int gh_schedule_swizzle(int count)
{
  int s = 1;
  while (2 * s <= gh_swizzle && count % (2 * s) == 0) s *= 2;
  return s;
}

// ANCHOR: schedule
lts_params gh_persistent_schedule_along(int M, int N, int bm, int bn, int raster_m, const char *who, dim3 *grid)
{
  lts_params sched;
  const char *err;
  int tiles_m = (M + bm - 1) / bm, tiles_n = (N + bn - 1) / bn;
  int swz = gh_schedule_swizzle(raster_m ? tiles_n : tiles_m);   // no empty work
  if (!lts_init(&sched, tiles_m, tiles_n, 1, 1, 1, swz, raster_m, &err)) {
    fprintf(stderr, "%s: %s\n", who, err);
    exit(1);
  }
  int gx, gy, gz;
  lts_grid(&sched, gh_sm_count(), &gx, &gy, &gz);       // one CTA per SM, never more than the tiles
  *grid = dim3(gx, gy, gz);
  return sched;
}
lts_params gh_persistent_schedule(int M, int N, int bm, int bn, const char *who, dim3 *grid)
{
  return gh_persistent_schedule_along(M, N, bm, bn, gh_persistent_raster_m(M, N), who, grid);
}
// ANCHOR_END: schedule

/* Stream-K over the (bm,bn) tiles of an (M,N,K) problem (steps 15, 22 and 27): chapter 6's
 * Stream-K scheduler over the tiles in the order above, on `workers` CTAs (the SMs; step 27's
 * clusters), never more than k iterations, or on fewer where the estimates below prefer an exact
 * split (stream_k_ctas: every tile in 2 to 4 equal parts), with its default count of Stream-K
 * tiles; a schedule it refuses ends the program with its reason, prefixed by `who` */
lts_sk_params gh_stream_k_schedule(int M, int N, int K, int bm, int bn, int workers, const char *who)
{
  lts_params order;
  lts_sk_params sk;
  const char *err;
  int tiles_m = (M + bm - 1) / bm, tiles_n = (N + bn - 1) / bn, tiles = tiles_m * tiles_n;
  int k_iters = (K + GH_BK - 1) / GH_BK;
  int ctas = gh_stream_k_ctas(M, N, K, bm, bn, workers);
  int swz = gh_schedule_swizzle(gh_raster_m ? tiles_n : tiles_m);
  if (!lts_init(&order, tiles_m, tiles_n, 1, 1, 1, swz, gh_raster_m, &err) ||
      !lts_sk_init(&sk, &order, k_iters, ctas, lts_sk_default_tiles(tiles, ctas, k_iters), &err)) {
    fprintf(stderr, "%s: %s\n", who, err);
    exit(1);
  }
  return sk;
}
/* The workspace of a Stream-K kernel: made on its first launch, a slot of `slot_floats` for each
 * of the GPU's SMs (a CTA's partial sums) and a flag each; returns this launch's epoch, the value
 * its flags are raised to, so that nothing is cleared between launches (flags of earlier launches
 * never match; all are cleared again when the counter wraps) */
int gh_stream_k_epoch(gh_sk_workspace *ws, size_t slot_floats)
{
  if (!ws->work) {
    ws->slots = gh_sm_count();
    LK_CHECK(cudaMalloc(&ws->work, (size_t)ws->slots * slot_floats * sizeof(float)));
    LK_CHECK(cudaMalloc(&ws->flags, (size_t)ws->slots * sizeof(int)));
  }
  ws->epoch = ws->epoch == 0x7fffffff ? 1 : ws->epoch + 1;
  if (ws->epoch == 1) LK_CHECK(cudaMemset(ws->flags, 0, (size_t)ws->slots * sizeof(int)));
  return ws->epoch;
}

/* the rules below for a GPU of `sms` SMs (the launchers pass gh_sm_count(); --route any count) */
static long long tiles_of(int M, int N, int bm, int bn) { return (long long)((M + bm - 1) / bm) * ((N + bn - 1) / bn); }
static int small_tiles_pay(int M, int N, int sms) { return tiles_of(M, N, 128, 128) <= sms; }
static int persistent_pays(int M, int N, int sms) { return tiles_of(M, N, GH_BM, GH_BN) >= 3LL * sms; }
/* step 20's CTAs: one per (64,128) tile, the tiles along m rounded up to whole pairs (its clusters) */
static long long small_tile_ctas(int M, int N) { return (long long)(((M + 63) / 64 + 1) / 2 * 2) * ((N + 127) / 128); }

// ANCHOR: split_parts
/* Step 19's parts: where the (128,128) tiles fit on the SMs at once, cut each tile's k loop into s
 * parts, as many as the SMs hold with at least 4 k tiles a part (1: no split): up to 3, all of
 * them, with the owner's fix-up; from 4 on, with the shared fix-up, all of them up to 16
 * (GH_SPLIT_ALL) where each part keeps 24 k tiles or more (GH_SPLIT_ALL_MIN_K; else the most parts
 * from 4 on that do), or the largest power of two up to 64 (GH_SPLIT_MAX) if that is more.  Before
 * the counts between powers of two, 384 x 768 x 16384 (18 tiles) ran 4 parts on 72 CTAs where 7
 * fit; with them, H200, the best path before and after in two pairs of processes: 384 x 768 x
 * 16384 0.728 -> 0.978 of cuBLAS (7 parts), 512 x 640 x 16384 0.686 -> 0.877 (6), 384 x 896 x
 * 12288 0.862 -> 0.997 (6), 640 x 640 x 16384 0.832 -> 0.964 (5), 512 x 768 x 16384 0.802 -> 0.915
 * (5), 384 x 384 x 32768 0.732 -> 0.802 (14, against 8); with fewer k tiles a part they lost:
 * 250 x 700 x 7777 -4.8% (11 parts of 11 k tiles, against 8), 640 x 640 x 2048 -3.5% (5 of 6),
 * 333 x 444 x 5555 -2.7% (11 parts of about 8 k tiles, against 8), hence the bound.  Step 19's
 * estimate, 0.55 k / s + 8 + f: the k loop shortens with every part; the owner adds s - 1 slots
 * in turn, f = s - 1, while the shared fix-up costs about the same whatever s is (every part adds
 * 1/s of the tile from all s slots), f = 2, so more parts always pay within the limits. */
static double split_estimate(double k, double s) { return 0.55 * k / s + 8 + (gh_split_shared((int)s) ? 2 : s - 1); }
/* Step 20's estimate, in the same units: a (64,128) k tile takes about 0.35 (it reads 24 KiB, and the
 * SM's intake of about 50 bytes a cycle bounds these tiles more than the MMAs do), 6 for the rest;
 * fitted to its timings at 7 small shapes on an H100 (chapter 7). */
static double small_tiles_estimate(double k) { return 0.35 * k + 6; }
int gh_split_parts(int M, int N, int K, int sms)
{
  long long T = tiles_of(M, N, 128, 128), k = (K + GH_BK - 1) / GH_BK;
  long long most = T <= sms ? sms / T : 1, s = 1;
  if (most > k / 4) most = k / 4;
  if (most <= 3) return most < 1 ? 1 : (int)most;
  long long all = most < GH_SPLIT_ALL ? most : GH_SPLIT_ALL;
  while (all > 4 && k / all < GH_SPLIT_ALL_MIN_K) --all;   // each part GH_SPLIT_ALL_MIN_K k tiles or more
  while (2 * s <= most && 2 * s <= GH_SPLIT_MAX) s *= 2;
  return (int)(all > s ? all : s);
}
// ANCHOR_END: split_parts

// ANCHOR: stream_k_pays
/* Stream-K against the other routes, in the time one SM takes for a k tile of a (128,256) tile:
 *   Stream-K (step 15)      T k / P' + 24      every SM the same share of the T k iterations (P' the
 *                           + 2 (parts - 2)    CTAs it runs), about 24 for the partial sums, the
 *                                              fix-up and the longer start, and 2 more for each
 *                                              partial sum an owner adds beyond the first, where
 *                                              fewer tiles than CTAs cut each tile into `parts`;
 *                                              14 in place of 24 where P' = p T, p = 2 to 4, cuts
 *                                              every tile into p equal parts (exact_split below)
 *   steps 16, 19            0.55 k / s + 8     one (128,128) tile a CTA, or one of its s parts
 *     (when chosen)         + f                (step 19, gh_split_parts), and its fix-up: f =
 *                                              s - 1 for the owner's (up to 3 parts), 2 for the
 *                                              shared one (4 parts or more)
 *   otherwise               ceil(T / P) k      whole waves of (128,256) tiles
 *   step 20, in place of    0.35 k + 6         one (64,128) tile a CTA, no fix-up, where its CTAs
 *     either, if lower                         fit on the SMs at once
 *   step 21                 ceil(T'/P)         whole waves of the T' (192,192) tiles: a k tile of
 *                           (1.01 k + 6)       one takes about as long as a (128,256) one, though
 *                                              it has 1.125 times the MMAs (21_tile_192.cu), and
 *                                              each tile 6 more for its epilogue; taken where it
 *                                              is below both others
 *   step 22, in place of    T' (1.01 k + 6)    Stream-K over the same tiles: every SM the same
 *     step 21, if lower     / P' + 24          share of them, and Stream-K's 24 and parts term
 *                           + 2 (parts - 2)    as above (P' the CTAs it runs, parts = ceil(P'/T'))
 * with T the (128,256) tiles, k the k tiles of one and P the SMs.  The constants are fitted to
 * lab 07's timings of steps 12, 15, 16 and 17 at 11 shapes on an H100, the parts term to its 30
 * random shapes (chapter 7, "The best path"), step 19's to 9 small shapes timed with 1 to 4
 * parts and its fix-ups' to 12 shapes timed with 2 to 64, step 20's to 7 small shapes, step 21's
 * to 12 shapes timed beside the best path before it on an H100 (21_tile_192.cu), step 22's
 * made of step 21's and step 15's terms, not fitted (22_stream_k_192.cu), the exact split's 14
 * to both kernels run both ways at eight shapes on an H200; where the estimates are close,
 * either route is within a few percent. */
/* whole tiles without step 20: steps 16 and 19 where (128,128) tiles fit, else waves of (128,256) */
static double whole_estimate(int M, int N, int K, int sms)
{
  double k = (K + GH_BK - 1) / GH_BK;
  return small_tiles_pay(M, N, sms) ? split_estimate(k, gh_split_parts(M, N, K, sms))
                                    : ceil((double)tiles_of(M, N, GH_BM, GH_BN) / sms) * k;
}
/* step 20 where its (64,128) tiles fit on the SMs at once and its estimate is the lower */
static int small_tiles_win(int M, int N, int K, int sms)
{
  return small_tile_ctas(M, N) <= sms && small_tiles_estimate((K + GH_BK - 1) / GH_BK) < whole_estimate(M, N, K, sms);
}
/* step 21: whole waves of (192,192) tiles, each 1.01 k + 6 */
static double tile_192_estimate(int M, int N, int K, int sms)
{
  double k = (K + GH_BK - 1) / GH_BK;
  return ceil((double)tiles_of(M, N, 192, 192) / sms) * (1.01 * k + 6);
}
// ANCHOR: exact_split
/* Stream-K over T tiles whose k tile costs `per_k` and each tile `per_tile` more, on `ctas` CTAs.
 * Where the CTAs are a multiple of the tiles, p T with p from 2 to GH_SK_EXACT_MAX, every CTA's
 * range is one p-th of one tile (split-K, the special case of Stream-K): no CTA holds parts of two
 * tiles, no tile is cut one way more than another, and the fixed cost falls from 24 to 14 (fitted
 * to steps 15 and 22 run both ways at eight shapes on an H200: 13 to 20).  Beyond 4 parts the
 * owner's serial additions cost more than that saves (chapter 7). */
#define GH_SK_EXACT_SAVES 10
#define GH_SK_EXACT_MAX 4
static int exact_split(double T, double ctas)
{
  return ctas > T && fmod(ctas, T) == 0 && ctas / T <= GH_SK_EXACT_MAX;
}
static double stream_k_on(double T, double k, double ctas, double per_k, double per_tile)
{
  double parts = ceil(ctas / T);
  return T * (per_k * k + per_tile) / ctas + 24 - (exact_split(T, ctas) ? GH_SK_EXACT_SAVES : 0) +
         (parts > 2 ? 2 * (parts - 2) : 0);
}
/* the CTAs Stream-K runs on out of P: all of them (never more than T k), or, where the tiles fit on
 * them p = 2 to GH_SK_EXACT_MAX times, p T if that estimate is the lower */
static int stream_k_ctas(double T, double k, int P, double per_k, double per_tile)
{
  int ctas = T * k < P ? (int)(T * k) : P, p = (int)(ctas / T);
  if (p < 2 || p > GH_SK_EXACT_MAX || p * T == ctas) return ctas;
  return stream_k_on(T, k, p * T, per_k, per_tile) < stream_k_on(T, k, ctas, per_k, per_tile) ? (int)(p * T) : ctas;
}
// ANCHOR_END: exact_split
/* the kernels' CTA counts: (192,192) tiles cost 1.01 a k tile and 6 a tile, the others 1 and 0 */
int gh_stream_k_ctas(int M, int N, int K, int bm, int bn, int workers)
{
  return stream_k_ctas((double)tiles_of(M, N, bm, bn), (K + GH_BK - 1) / GH_BK, workers, bm == GH192_BM ? 1.01 : 1,
                       bm == GH192_BM ? 6 : 0);
}
/* where that count splits every tile into equal parts (2 to GH_SK_EXACT_MAX): how many; else 0 */
static int exact_parts(int M, int N, int K, int bm, int bn, int workers)
{
  double T = (double)tiles_of(M, N, bm, bn), ctas = gh_stream_k_ctas(M, N, K, bm, bn, workers);
  return exact_split(T, ctas) ? (int)(ctas / T) : 0;
}
/* step 27's workers: clusters of 2, counted here as half the SMs (its launcher asks the occupancy
 * API how many fit at once) */
static int cluster_workers(int sms) { return sms / 2 ? sms / 2 : 1; }
int gh_route_exact_parts(int step, int M, int N, int K, int sms, int *ctas)
{
  if (step != 15 && step != 22 && step != 27) return 0;
  int bm = step == 22 ? GH192_BM : step == 27 ? 2 * GH_BM : GH_BM, bn = step == 22 ? GH192_BN : GH_BN;
  int workers = step == 27 ? cluster_workers(sms) : sms;
  *ctas = gh_stream_k_ctas(M, N, K, bm, bn, workers);
  return exact_parts(M, N, K, bm, bn, workers);
}
static double stream_k_estimate(double T, double k, double P, double per_k, double per_tile)
{
  return stream_k_on(T, k, stream_k_ctas(T, k, (int)P, per_k, per_tile), per_k, per_tile);
}
void gh_estimates(int M, int N, int K, int sms, double *stream_k, double *whole, double *tile_192,
                  double *stream_k_192)
{
  double k = (K + GH_BK - 1) / GH_BK;
  *stream_k = stream_k_estimate((double)tiles_of(M, N, GH_BM, GH_BN), k, sms, 1, 0);
  *whole = small_tiles_win(M, N, K, sms) ? small_tiles_estimate(k) : whole_estimate(M, N, K, sms);
  *tile_192 = tile_192_estimate(M, N, K, sms);
  *stream_k_192 = stream_k_estimate((double)tiles_of(M, N, 192, 192), k, sms, 1.01, 6);
}
// ANCHOR_END: stream_k_pays

int gh_persistent_pays(int M, int N) { return persistent_pays(M, N, gh_sm_count()); }

// ANCHOR: clusters_pay
/* The best path's clusters: step 14's kernel with step 17's TMA-store epilogue, at any K, in place
 * of the (128,256) tiles of steps 15 and 17, and of the (192,192) tiles of steps 21 and 22.  Taken
 * where the k loop is long, K >= GH_CLUSTER_MIN_K in place of (128,256) tiles and K >=
 * GH_CLUSTER_192_MIN_K in place of (192,192) ones, so that the loads of A and B, whose reads of B
 * from L2 the clusters halve, weigh the most against the epilogue; where whole (128,256) tiles make
 * at least GH_CLUSTER_MIN_WAVES waves; and where whole tiles, GH_CLUSTER_GAIN faster in clusters,
 * still beat Stream-K's estimate, so that the clusters never take a last wave that leaves many SMs
 * idle.  Measured at 8192^3 (15.5 waves: whole tiles 2048 against Stream-K's 2010), in runs that
 * time both: 1.5-6% faster than Stream-K on an H100 (9 runs), 0.3-1.2% on an H200 (4 runs); with
 * the factor 0.97 their estimate comes out 1.2% under Stream-K's, the smaller GPU's gain.  Below
 * K = 8192 or with fewer waves they gained on one GPU and lost on the other, or lost on both
 * (5120 x 5120 x 4096, 6.06 waves: 12%).  In place of step 21 or 22 (H200, timed in turns with the
 * route before in one process, one to five runs, chapter 7's table): 7168^3 +4.5 to +6.3%,
 * 13312^3 +3.8 to +5.4%, 7168 x 7168 x 12288 +3.8%, 7424^3 +1.4 to +3.1%, 6144^3 +1.0 to +2.2%,
 * 10240^3 0 to +1.5%, 12288^3 -1.1 to +1.3%, 6144 x 6144 x 4096 -0.6 to +1.2%, 9216^3 -1.3 to
 * +1.4%; level (within 0.5%) at 11264^3, 7680 x 7680 x 8192, 8192 x 8192 x 16384 and 9216 x 9216
 * x 4096.  On an H100 they were ahead of step 22 at 12288^3 in all three runs (0.98-1.02 of cuBLAS
 * against 0.92-0.95, chapter 7). */
#define GH_CLUSTER_MIN_K 8192
#define GH_CLUSTER_192_MIN_K 4096
#define GH_CLUSTER_MIN_WAVES 8
#define GH_CLUSTER_GAIN 0.03
static int clusters_pay(int M, int N, int K, int sms, int path)
{
  double stream_k, whole, tile_192, stream_k_192;
  gh_estimates(M, N, K, sms, &stream_k, &whole, &tile_192, &stream_k_192);
  int min_k = path == 21 || path == 22 ? GH_CLUSTER_192_MIN_K : GH_CLUSTER_MIN_K;
  return K >= min_k && tiles_of(M, N, GH_BM, GH_BN) >= (long long)GH_CLUSTER_MIN_WAVES * sms &&
         (1 - GH_CLUSTER_GAIN) * whole < stream_k;
}
// ANCHOR_END: clusters_pay

// ANCHOR: best_path
int gh_best_path_unclustered(int M, int N, int K, int sms)
{
  double stream_k, whole, tile_192, stream_k_192;
  gh_estimates(M, N, K, sms, &stream_k, &whole, &tile_192, &stream_k_192);
  if (tile_192 < stream_k && tile_192 < whole)         // (192,192) tiles fill the waves better: ...
    return stream_k_192 < tile_192 ? 22 : 21;          // ... Stream-K over them, or whole waves
  if (stream_k < whole) return 15;                     // SMs idle for long under whole tiles: Stream-K
  if (small_tiles_win(M, N, K, sms)) return 20;        // (64,128) tiles fit at once and beat the others
  if (small_tiles_pay(M, N, sms))                      // (128,128) tiles fit at once: one a CTA, ...
    return gh_split_parts(M, N, K, sms) > 1 ? 19 : 16; // ... or each k loop cut between CTAs
  if (!persistent_pays(M, N, sms)) return 12;          // under 3 tiles an SM: one launch of tiles
  return 17;                                           // persistent, C by TMA stores where it may
}
// ANCHOR_END: best_path

// ANCHOR: off_lines
/* An operand's columns off 128-byte lines: its leading dimension a multiple of 8, so TMA reads it
 * as it is (no padded copy), but not of 64, so most 128-byte rows of its TMA boxes lie across two
 * cache lines.  The clusters halve what each CTA asks L2 for of the operand they share.  Measured
 * on an H100 80GB HBM3, ratios to cuBLAS in the same run:
 *   B (ldb): whole (128,256) tiles and Stream-K 0.63-0.70 (4096 x 4096, 8192 x 8192 and 3072 x 3072
 * at K = 9000), step 14's clusters, each CTA of which loads one of the two boxes of B's slice,
 * 0.98-1.01; the (192,192) route the best path chose at 6000^3, 7000^3, 10000^3, 9000 x 9000 x 4104
 * and 12288 x 12288 x 5000 0.62-0.85 (three runs), the clusters there 0.88-1.13.  So wherever the
 * best path would run (128,256) or (192,192) tiles persistently (steps 15, 17, 21, 22; 3 tiles of
 * (128,256) an SM or more), it runs step 14's clusters, or step 27's Stream-K in the same
 * clusters where stream_k_clusters_pay holds.
 *   A (lda, where B is on lines): whole tiles, Stream-K and (192,192) tiles 0.80-0.98 at seven
 * shapes (8200 x 8192 x 4096, 8200 x 8200 x 8192, 12000 x 12288 x 4096, 6000 x 6144 x 4096,
 * 10000 x 8192 x 2048, 4040 x 4096 x 4096, 8200 x 8192 x 1024), step 23's clusters, which share A,
 * 0.92-1.02, ahead at every one in every run (1.4-15%); so the best path runs step 23 where whole
 * (128,256) tiles, GH_SHARE_A_GAIN faster so, beat Stream-K's estimate over (128,256) tiles (at
 * 5000 x 5000 x 4096, 6.06 waves, Stream-K stays: 0.91 against step 23's 0.83).  On an H200 A off
 * lines costs less, and at 8200 x 8200 x 8192 step 22 stays 5-8% ahead of step 23 (chapter 7).
 * Where both are off lines, B is shared: B's slice is twice A's (step 14 0.88-1.13 against step 23
 * 0.72-0.93 at 6000^3, 7000^3, 10000^3 and 9000 x 9000 x 4104).
 *   Below 3 tiles an SM (up to three waves), where the route runs one launch of whole (128,256)
 * tiles (step 12) and B is off lines, step 14's clusters in its place, one to three tiles per CTA
 * (they need two tiles along m to share anything).  On an H100, at nine such shapes from
 * 1000 x 4000 x 3000 (one wave) to 4000 x 3000 x 3000 (2.91 waves; also 2000 x 4000 x 3000,
 * 2000 x 2000 x 3000, 1000 x 8000 x 3000, 2048 x 4096 x 5000, 1536 x 8192 x 3000, 2000 x 6000 x 2000,
 * 1024 x 4096 x 3000), step 12 0.62-0.92 of cuBLAS, the clusters 0.89-1.00; in a second run,
 * through the best path, 1000 x 4000 x 3000 0.857 (step 12: 0.596), 2000 x 4000 x 3000 0.967
 * (0.687), 2048 x 4096 x 5000 0.980 (0.756), 4000 x 3000 x 3000 0.994 (0.697).  On an H200, the
 * same four: 0.974, 0.989, 0.984, 0.971 (0.687, 0.809, 0.843, 0.776); 1000 x 4000 x 3000 read 0.683
 * in an earlier run.  Where the route runs (192,192) tiles there (step 21; 3000^3), step 14's
 * clusters gained little or lost (H100 0.69 -> 0.70, H200 0.79 -> 0.76), and step 24's, (192,192)
 * tiles in clusters that share B, take step 21's place (24_clusters_192.cu has the numbers).
 * Where only A is off lines the tiles lose nothing measurable at these sizes (H200, one run:
 * 1000 x 4096 x 3072 0.993 of cuBLAS, 1024 x 4096 x 3072 0.982).
 *   With B on lines too, below 3 tiles an SM, where the route runs step 12's one launch of whole
 * (128,256) tiles in more than one wave, step 14's clusters in its place: on an H200, in one run
 * that timed both, ahead at 11 of 12 shapes of 1.5 to 3 waves (2560 x 2560 x 2048 to 3584^3),
 * by 1.2-4.2% (3584 x 3584 x 1024 0.931 -> 0.970, 4096 x 3072 x 2048 0.922 -> 0.958, 2560 x 4096
 * x 1024 0.792 -> 0.824), and 1.2% behind at 2816 x 3072 x 4096; in a second run, at 12 shapes
 * not used to set the rule, ahead at 11 by 0.5-6.7% (3072 x 3584 x 1024 0.922 -> 0.984, 3584^3
 * 0.956 -> 0.994, 2560^3 0.975 -> 0.980) and level at 3001 x 3500 x 2000, whose padded copies take
 * most of the time.  Where the (128,256) tiles fit in one wave, the route stays step 12 (not
 * measured). */
// ANCHOR: narrow_pays
/* Step 25 where C's narrow side, the smaller of M and N, is 64 or less: one (64,64) tile across it,
 * the narrow side on the MMA's n (25_narrow.cu).  On an H100, at 18 such shapes from 8 x 4096 x 8192
 * to 32 x 28672 x 4096 and 14336 x 16 x 4096, it read 0.59-1.02 of cuBLAS where the route before it
 * read 0.50-0.95; in a second run at 20 (the same 18, 48 x 1000 x 1000 and 64 x 2048 x 2048),
 * 0.56-1.18 where step 19 read 0.50-1.34 (chapter 7 has the shapes where it is level or behind). */
static int narrow_pays(int M, int N) { return (M < N ? M : N) <= 64; }
// ANCHOR_END: narrow_pays
#define GH_SHARE_A_GAIN 0.05
static int off_lines(int ld) { return ld % 8 == 0 && ld % 64 != 0; }
/* Below 3 tiles an SM, where the route runs Stream-K (step 15) and B is off lines: step 14's
 * clusters, whole tiles, where the k loop is long (K >= GH_FEW_WAVES_MIN_K: B's loads weigh the
 * most) and the waves of (128,256) tiles are at least GH_FEW_WAVES_FILL full.  On an H100, in two
 * runs that timed the best path before and after: 2000 x 3000 x 9000 0.28 -> 0.22 ms,
 * 1200 x 2400 x 10000 0.14 -> 0.11, 2200 x 2200 x 7000 0.20 -> 0.18, 3000 x 2000 x 6000 0.17 -> 0.15,
 * 1800 x 2600 x 7000 (0.63 full) 0.19 -> 0.18, 1300 x 3900 x 5000 0.150 -> 0.140, 2000 x 3000 x 6000
 * 0.152 -> 0.143; level at 1000 x 3000 x 8000 and 1000 x 5000 x 6000.  Below the bounds the clusters
 * lost: 1100 x 1100 x 12000 (45 tiles, 0.34 full) 0.126 -> 0.154, 1600 x 3200 x 4400 0.097 -> 0.104,
 * 2000 x 3000 x 4000 0.098 -> 0.099-0.104. */
#define GH_FEW_WAVES_MIN_K 4608
#define GH_FEW_WAVES_FILL 0.6
static int few_waves_clusters_pay(int M, int N, int K, int sms)
{
  long long T = tiles_of(M, N, GH_BM, GH_BN), waves = (T + sms - 1) / sms;
  return K >= GH_FEW_WAVES_MIN_K && T >= GH_FEW_WAVES_FILL * waves * sms;
}
static int share_a_pays(int M, int N, int K, int sms)
{
  double stream_k, whole, tile_192, stream_k_192;
  gh_estimates(M, N, K, sms, &stream_k, &whole, &tile_192, &stream_k_192);
  return (1 - GH_SHARE_A_GAIN) * whole < stream_k;
}
/* Step 23's clusters, which share A, in place of step 17's whole (128,256) tiles with both operands
 * on lines, where K > GH_TMA_C_MAX_K (where step 17 leaves its TMA-store epilogue; the clusters
 * keep theirs at any K) and the pairs of tiles along n take as many waves of the clusters (half the
 * SMs) as the tiles do of the SMs: each CTA asks L2 for 40 KiB a k tile in place of 48.  H200,
 * both kernels in one process, two processes (the order swapped): at 39 shapes where the route ran
 * step 17 (M and N from 2048 to 12160, K from 576 to 13056), faster at all 17 where the rule
 * holds, by 1.3-4.8% (4096 x 4096 x 5120 0.945 -> 0.990 of cuBLAS, 5120 x 4096 x 8192 0.967 ->
 * 1.004, 6848 x 9216 x 5248 0.953 -> 0.998); where the pairs take one wave more, 9.5-18.1% slower
 * (2048 x 8448 x 10752, 528 tiles in 4 waves, 272 pairs in 5); at K <= 4096 with as many waves,
 * 0.7% slower to 2.3% faster (4096^3: step 23 0.982 of cuBLAS, step 17 0.989).  At 20 random
 * shapes held out where the rule holds, the best path before and after in alternated processes:
 * faster at all 20, by 1.7-4.9%, 3.0% on average (median ratio to cuBLAS 0.965 -> 1.000).  Not
 * measured on an H100. */
// ANCHOR: share_a_lines
static int share_a_on_lines_pays(int M, int N, int K, int sms)
{
  long long pairs = tiles_of(M, N, GH_BM, 2 * GH_BN), P = cluster_workers(sms);   // pairs along n, 66 clusters
  long long T = tiles_of(M, N, GH_BM, GH_BN);
  return K > GH_TMA_C_MAX_K && (pairs + P - 1) / P == (T + sms - 1) / sms;      // no wave more than the tiles
}
// ANCHOR_END: share_a_lines
// ANCHOR: one_wave
/* step 26: waves of (192,bn) tiles, bn 96 or 128, each k tile GH_NARROW_PER_K(bn) in the units of
 * gh_estimates, and GH_NARROW_START more for the launch; the width whose estimate is lower (96
 * where they tie) */
#define GH_NARROW_PER_K(bn) ((bn) == 96 ? 0.65 : 0.8)
#define GH_NARROW_START 2
static double narrow_estimate(int M, int N, int K, int sms, int bn)
{
  double k = (K + GH_BK - 1) / GH_BK;
  return ceil((double)tiles_of(M, N, 192, bn) / sms) * GH_NARROW_PER_K(bn) * k + GH_NARROW_START;
}
double gh_narrow_estimate(int M, int N, int K, int sms, int *bn)
{
  double e96 = narrow_estimate(M, N, K, sms, 96), e128 = narrow_estimate(M, N, K, sms, 128);
  *bn = e96 <= e128 ? 96 : 128;
  return e96 <= e128 ? e96 : e128;
}
int gh_narrow_bn(int M, int N, int K, int sms)
{
  int bn;
  gh_narrow_estimate(M, N, K, sms, &bn);
  return bn;
}
/* Step 26 where its (192,128) or (192,96) tiles fit on the SMs in one wave, or, in place of the
 * (128,256) tiles of steps 12 and 15, in more waves; where step 20's CTAs do not fit (the smallest
 * problems stay with step 20: 512^3 0.008 ms against 0.005, H100), neither operand lies off lines
 * (B off lines: the clusters below share it; at 3000 x 1000 x 3000, both off lines, (192,128) tiles
 * read 0.62 of cuBLAS against 0.76 for step 14's clusters, H100; A off lines: not measured), and
 * its estimate is below the four others, step 22's included.  The constants, in a (128,256) tile's
 * k tile: a (192,128) k tile has 0.75 of its MMAs, a (192,96) one 0.5625; the estimate counts 0.8
 * and 0.65, and 2 for the start, so that long k loops stay with Stream-K (1536 x 1536 x 16384:
 * Stream-K 0.133 ms, (192,96) tiles 0.142, H200).  Measured before -> after, chapter 7 has the
 * table: H100 1536^3 0.020 -> 0.015 ms, 1664^3 0.023 -> 0.018-0.019, 768 x 3072 x 4096 0.046 ->
 * 0.039; level at 1408^3 and 1536 x 1536 x 8192.  More than one wave (H200, one run, ratio to
 * cuBLAS, the route before in brackets): where (128,256) tiles need a second wave, two waves of
 * (192,128) tiles, 2048 x 3072 x 1024 0.960 (step 12: 0.764), 2048 x 3072 x 2048 0.959 (0.756),
 * 2048 x 3072 x 4096 1.005 (step 15: 0.889), 1536 x 4096 x 2048 0.951 (0.759), 1536 x 3584 x 1024
 * 0.947 (0.740), 1536 x 4096 x 512 0.933 (0.763), 3072 x 2048 x 1024 0.961 (0.760), 4096 x 1536 x
 * 2048 0.946 (0.749), 2048 x 2560 x 1024 0.752 (0.587); in place of step 21's (192,192) tiles they
 * lost (1536 x 6144 x 1024 0.945 against 0.976, 1536 x 3072 x 512 0.853 against 0.974), so (192,192)
 * tiles keep their shapes.  Where (128,256) tiles fit in one wave, two waves of narrow tiles lose
 * (1792^3 0.70-0.75 against step 12's 0.99-1.05, H100, the width forced), and their estimate
 * says so. */
static int narrow_tiles_pay(int M, int N, int K, int lda, int ldb, int sms, int path)
{
  if (off_lines(lda) || off_lines(ldb) || small_tile_ctas(M, N) <= sms) return 0;
  int bn;
  double narrow = gh_narrow_estimate(M, N, K, sms, &bn), stream_k, whole, tile_192, stream_k_192;
  if (tiles_of(M, N, 192, bn) > sms && path != 12 && path != 15)   // more waves: in place of (128,256)
    return 0;                                                      // tiles only, not of (192,192) ones
  gh_estimates(M, N, K, sms, &stream_k, &whole, &tile_192, &stream_k_192);
  return narrow < stream_k && narrow < whole && narrow < tile_192 && narrow < stream_k_192;
}
// ANCHOR_END: one_wave
/* Step 26 from 3 tiles of (128,256) an SM on, in place of the persistent (128,256) tiles of steps 15
 * and 17 where the (192,128) tiles fill their waves better.  Its kernel is persistent too (step
 * 21's schedule), so its estimate counts whole waves of them, each GH_NARROW_P_PER_K a k tile and
 * GH_NARROW_P_TILE more a tile; step 17's whole tiles count GH_WHOLE_P_TILE a tile beside theirs,
 * Stream-K keeps its own estimate.  Fitted to both kernels timed in one process at 38 shapes of 3
 * to 35 waves (H200): a (192,128) tile 0.631 us a k tile and 2.85 us more (35 shapes), a (128,256)
 * one of step 17 0.859 us and 1.71 us (27 shapes); in the second's k tiles, 0.735 and 3.3, and 2.
 * Taken where the estimate is more than GH_NARROW_P_GAIN below the route's, with both operands on
 * lines and the (192,128) width chosen (gh_narrow_bn).  Checked at 41 shapes with M < 10000 not
 * used to fit it where it holds (H200, three runs, each shape beside the route before in the same
 * process; 13 of them odd sizes, through the padded copies): ahead at all 41, by 0.8-18.7% (4032 x
 * 3136 x 1088 0.829 -> 0.984 of cuBLAS, 2880 x 5504 x 5376 0.903 -> 0.990, 2880 x 8832 x 7616 step
 * 15's 0.954 -> 1.028); where its estimate is less than 2% ahead, 0.8% behind to 5.8% ahead (seven
 * shapes).  With M from 10000 up the tiles taken along m fell short of the estimate (1.2 to 9.3% at
 * the seven shapes of step 15 or 17 above 11000 timed); taken along n (gh_narrow_raster_m), at 17
 * shapes with M from 10176 to 15808 where the rule holds, ahead at 15 by 5.0-25.1% (15424 x 1600 x
 * 2176 0.813 -> 1.017, 11456 x 1920 x 1728 0.965 -> 1.013), level at 10752 x 2944 x 2688 and 1.3%
 * behind at 10624 x 1792 x 1536.  Chapter 7 has the shapes. */
// ANCHOR: narrow_persistent
#define GH_NARROW_P_PER_K 0.74
#define GH_NARROW_P_TILE 3.3
#define GH_WHOLE_P_TILE 2
#define GH_NARROW_P_GAIN 0.02
static int narrow_persistent_pays(int M, int N, int K, int lda, int ldb, int sms, int path)
{
  if ((path != 15 && path != 17) || off_lines(lda) || off_lines(ldb) || gh_narrow_bn(M, N, K, sms) != 128)
    return 0;
  double k = (K + GH_BK - 1) / GH_BK, stream_k, whole, tile_192, stream_k_192;
  gh_estimates(M, N, K, sms, &stream_k, &whole, &tile_192, &stream_k_192);
  double whole_p = ceil((double)tiles_of(M, N, GH_BM, GH_BN) / sms) * (k + GH_WHOLE_P_TILE);
  double narrow = ceil((double)tiles_of(M, N, 192, 128) / sms) * (GH_NARROW_P_PER_K * k + GH_NARROW_P_TILE);
  double route = path == 15 ? stream_k : whole_p;
  return narrow < (1 - GH_NARROW_P_GAIN) * route;
}
/* Step 26's tiles in the order of chapter 6's scheduler along n, not m, where C is taller than wide
 * and they fill 3 waves of (128,256) tiles or more.  Along m, with the swizzle 1 that an odd count
 * of tile columns leaves (gh_schedule_swizzle), each wave of 132 tiles fills about two tile
 * columns and reads all of A again; along n, with a swizzle of up to 4 tile rows, a wave walks
 * bands of a few tile rows across all of B, the smaller operand where M > N (at 11456 x 1920 x
 * 1728, 60 x 15 tiles: 11904 rows of A and columns of B a k step against 4224).  Measured on an
 * H200, along n against along m in one process: at 22 shapes with M from 10176 to 16384 and N from
 * 1536 to 12160, 0.6-25.9% faster (11456 x 1920 x 1728 0.919 -> 1.013 of cuBLAS, 15808 x 2432 x
 * 4608 0.792 -> 0.977); at 10 with M from 4032 to 9088, 0.9% slower to 2.1% faster; where M < N
 * slower (1792 x 10048 x 1344 0.818 -> 0.754, 2240 x 9792 x 1472 1.034 -> 0.976). */
int gh_narrow_raster_m(int M, int N) { return M > N && gh_persistent_pays(M, N) ? 0 : gh_raster_m; }
// ANCHOR_END: narrow_persistent
/* The whole tiles of the persistent steps (13, 16, 17 and 21 through gh_persistent_schedule, and
 * step 14's clusters, sharing B or A) in the order of chapter 6's scheduler along n, not m, where C
 * is at least one and a half times as tall as wide and they fill 3 waves of (128,256) tiles or
 * more; Stream-K keeps gh_raster_m.  Measured on an H200, the best path along n against along m in
 * one process, at random shapes with sides a multiple of 64 (steps 14, 17, 21) or M a multiple of 8
 * (step 23), two runs: at 68 with M >= 1.5 N, 1.9% slower to 6.9% faster, 1.2% faster on average
 * (15552 x 1984 x 5120 0.878 -> 0.939 of cuBLAS, 11072 x 6784 x 5696 0.946 -> 0.997, 13384 x 2752 x
 * 1024 0.833 -> 0.876); at 8 with 1.3 N < M < 1.5 N, 0.7% slower on average, 2.6% and 4.7% at two
 * of them (13696 x 10176 x 3072, 15632 x 11072 x 8192).  Stream-K (steps 15 and 22) along n at 11
 * tall shapes: 1.3% slower to 2.6% faster, no better on average.  Checked at 30 other shapes with
 * M >= 1.5 N, the rule on and off: 1.8% slower to 3.3% faster, 0.5% faster on average, faster at
 * 19 (13864 x 3328 x 2368 0.900 -> 0.931, 12928 x 7808 x 5120 0.998 -> 1.026).  Timed in the
 * cyclic order of lk_time_turns_ms (chapter 7 has the shapes). */
// ANCHOR: tall_order
int gh_persistent_raster_m(int M, int N)
{
  return 2 * M >= 3 * N && gh_persistent_pays(M, N) ? 0 : gh_raster_m;   // M >= 1.5 N, 3 waves or more
}
// ANCHOR_END: tall_order
// ANCHOR: stream_k_clusters
/* Step 27: Stream-K over pairs of (128,256) tiles along m, on P/2 clusters of 2 that share B.  Its
 * estimate is step 15's over the pairs, P/2 the schedule's CTAs, a pair's k tile as long as a
 * tile's (its two CTAs load and multiply at once); step 14's whole tiles in the same clusters take
 * ceil(pairs / (P/2)) k.  Where B lies off lines, the best path takes step 27 in place of step 14's
 * clusters (and of step 12's or 15's tiles below 3 waves) where its estimate is GH_SK_CLUSTERS_GAIN
 * below step 14's.  Measured, step 27 against step 14's clusters, both with TMA stores (H100, H200):
 * at estimates 0.95-0.97 of step 14's, 6600 x 6600 x 7000, 5600 x 5600 x 5000 and 6600 x 6600 x 4000,
 * level to 4% faster on both GPUs; at 0.975-0.981 from 3% slower to 6% faster (12000 x 4000 x 5000,
 * 6600 x 6600 x 3000, 5600 x 5600 x 3000, H100); from 0.983 on slower, 1-6% (8000 x 8000 x 7000,
 * 8000 x 8000 x 5000, 6000^3, 7000^3).  27_stream_k_clusters.cu has the shapes it took over. */
#define GH_SK_CLUSTERS_GAIN 0.03
void gh_cluster_estimates(int M, int N, int K, int sms, double *stream_k, double *whole)
{
  double k = (K + GH_BK - 1) / GH_BK, pairs = (double)tiles_of(M, N, 2 * GH_BM, GH_BN), P = cluster_workers(sms);
  *stream_k = stream_k_estimate(pairs, k, P, 1, 0);
  *whole = ceil(pairs / P) * k;
}
static int stream_k_clusters_pay(int M, int N, int K, int sms)
{
  double stream_k, whole;
  gh_cluster_estimates(M, N, K, sms, &stream_k, &whole);
  return stream_k < (1 - GH_SK_CLUSTERS_GAIN) * whole;
}
// ANCHOR_END: stream_k_clusters
// ANCHOR: exact_split_pays
/* Below 3 tiles an SM, with B on lines: step 22 where its schedule splits every (192,192) tile
 * exactly and its estimate is below Stream-K's over (128,256) tiles and whole tiles' (where step
 * 21's own is below both, the route has weighed steps 21 and 22 already) */
static int exact_split_pays(int M, int N, int K, int sms)
{
  double stream_k, whole, tile_192, stream_k_192;
  gh_estimates(M, N, K, sms, &stream_k, &whole, &tile_192, &stream_k_192);
  return exact_parts(M, N, K, GH192_BM, GH192_BN, sms) && stream_k_192 < stream_k && stream_k_192 < whole &&
         !(tile_192 < stream_k && tile_192 < whole);
}
// ANCHOR_END: exact_split_pays
/* the best path: step 28 where thin_pays holds; step 25 where narrow_pays does; step 30, 26 or 29
 * where tall_c_step names one; step 29 where one_wave_pays does; else the route by the shape, and
 * where that runs (128,256) or (192,192) tiles
 * persistently (whole or by Stream-K, 3 tiles of (128,256) an SM or more: so steps 16, 19 and 20
 * never meet the clusters), clusters in their place: where B is off lines, step 27's Stream-K in
 * clusters where stream_k_clusters_pay holds, else step 14's; step 23's where A is off lines and
 * they pay, and step 14's in place of (128,256) tiles where clusters_pay holds, else step 26's
 * (192,128) tiles in place of steps 15 and 17 where narrow_persistent_pays holds; under 3 tiles an SM
 * with B off lines and two tile rows or more, step 27 in place of step 12's one launch of whole
 * tiles or step 15's Stream-K where stream_k_clusters_pay holds, else step 14's clusters (in place
 * of step 15 only where few_waves_clusters_pay holds); under 3 tiles an SM, first, step 26's narrow
 * tiles where narrow_tiles_pay holds, and with B on lines step 22's exact split where
 * exact_split_pays holds; and last, step 29 wherever that route is step 16 or 26 and one_wave_band
 * holds, in place of Stream-K there up to K = GH_ONE_WAVE_LINES_MAX_K with both operands on lines,
 * and in place of step 15 where gh_one_wave_pairs holds (step 29 in pairs of CTAs that share A) */
// ANCHOR: thin_pays
/* Step 28's kernels on the CUDA cores (28_thin.cu has the measurements): where C has at most
 * GH_THIN_SIDE rows or columns; where K is at most 2; and where K is at most 8 and the outer
 * kernel's time, C's elements times 1 + 0.36 K in its fit to the H200's numbers, is at most
 * GH_THIN_SMALL (about 4 us): there the tensor-core path's fixed cost of launches and fix-ups is
 * the larger */
#define GH_THIN_SIDE 2
#define GH_THIN_SMALL 4194304.0
static int thin_pays(int M, int N, int K)
{
  return M <= GH_THIN_SIDE || N <= GH_THIN_SIDE || K <= 2 || (K <= 8 && (double)M * N * (1 + 0.36 * K) <= GH_THIN_SMALL);
}
// ANCHOR_END: thin_pays
// ANCHOR: one_wave_pays
/* Step 29's tiles, one a CTA (29_one_wave.cu has the measurements): where (128,128) tiles fit on
 * the SMs at once and step 20's (64,128) CTAs do not (one_wave_band); (128,96) tiles where those fit
 * at once too (gh_one_wave_bn), so that they put more SMs to work than step 26's (192,96) tiles or
 * step 16's (128,128) ones, else (128,128) tiles, whose two consumer warpgroups both work where
 * step 16 keeps one of them idle; no fix-up.  Up to K = GH_ONE_WAVE_MAX_K, beyond which Stream-K's
 * share of the k loops on every SM pays for its fix-up (at longer k loops, only in place of some
 * routes: gh_best_path below) */
#define GH_ONE_WAVE_MAX_K 3072
static int one_wave_band(int M, int N, int sms)
{
  return tiles_of(M, N, 128, 128) <= sms && small_tile_ctas(M, N) > sms;
}
int gh_one_wave_bn(int M, int N, int sms) { return tiles_of(M, N, 128, 96) <= sms ? 96 : 128; }
// ANCHOR: one_wave_pairs
/* Step 29 in pairs of CTAs along n that share A by multicast (29_one_wave.cu has the
 * measurements): in its band, for k loops longer than GH_ONE_WAVE_MAX_K, where the tiles along n are
 * even in number (no CTA past N).  Each CTA asks L2 for half of A's rows: 20 KiB a k tile in place
 * of 28 ((128,96) tiles), as cuBLAS's (96,128) tiles in pairs do */
int gh_one_wave_pairs(int M, int N, int K, int sms)
{
  int bn = gh_one_wave_bn(M, N, sms);
  return one_wave_band(M, N, sms) && K > GH_ONE_WAVE_MAX_K && (N + bn - 1) / bn % 2 == 0;
}
// ANCHOR_END: one_wave_pairs
static int one_wave_pays(int M, int N, int K, int sms)
{
  return one_wave_band(M, N, sms) && K <= GH_ONE_WAVE_MAX_K;
}
// ANCHOR_END: one_wave_pays
// ANCHOR: tall_c
/* C of 65 to 128 columns (64 or fewer are step 25's) and more (128,128) tiles than SMs, a column of
 * them: the k loops stream A, M x K, from memory and B, K x N, stays in L2, so what counts is how
 * evenly the rows of A are spread over the SMs.  Tiles of bm rows, one column of them, put
 * ceil(ceil(M / bm) / sms) bm rows on the busiest SM; the route takes the height that puts the
 * fewest there, the taller where they tie: 256 (step 30), 192 (step 26's (192,bn) tiles) or 128
 * (step 29's (128,128) tiles, beyond its band).  30_tall.cu has the measurements. */
static long long busiest_rows(int M, int bm, int sms) { return ((M + bm - 1) / bm + sms - 1) / sms * (long long)bm; }
static int tall_c_step(int M, int N, int sms)
{
  if (N > 128 || tiles_of(M, N, 128, 128) <= sms) return 0;
  long long r256 = busiest_rows(M, 256, sms), r192 = busiest_rows(M, 192, sms), r128 = busiest_rows(M, 128, sms);
  return r256 <= r192 && r256 <= r128 ? 30 : r192 <= r128 ? 26 : 29;
}
int gh_tall_bn(int N) { return N <= 96 ? 96 : 128; }
// ANCHOR_END: tall_c
static int best_path_by_shape(int M, int N, int K, int lda, int ldb, int sms)
{
  if (thin_pays(M, N, K)) return 28;                   // a side of C, or K, of a few: step 28
  if (narrow_pays(M, N)) return 25;                    // C 64 rows or columns or fewer: step 25's tiles
  int tall = tall_c_step(M, N, sms);                   // C 65 to 128 columns wide and tall: by the rows
  if (tall) return tall;                               // on the busiest SM (steps 30, 26, 29)
  if (one_wave_pays(M, N, K, sms)) return 29;          // (128,96) tiles fit at once, step 20's do not
  int path = gh_best_path_unclustered(M, N, K, sms);
  // ANCHOR: few_waves
  if (!persistent_pays(M, N, sms)) {                   // under three waves: first, waves of
    if (narrow_tiles_pay(M, N, K, lda, ldb, sms, path)) return 26;   // (192,96) or (192,128) tiles if they pay
    int rows = (M + GH_BM - 1) / GH_BM >= 2;           // two tile rows or more: clusters can pair them
    if (!off_lines(ldb)) {                             // B on lines: step 22's exact split, or step 14's
      if (exact_split_pays(M, N, K, sms)) return 22;   // clusters in place of step 12's tiles where
      return path == 12 && rows && tiles_of(M, N, GH_BM, GH_BN) > sms ? 14 : path;   // those take two waves
    }                                                  // B off lines: clusters that share it, two tiles
    if ((path == 12 || path == 15) && rows && stream_k_clusters_pay(M, N, K, sms))   // along m or more, in
      return 27;                                       // place of step 12's (128,256) tiles or step 15's
    if ((path == 12 || (path == 15 && few_waves_clusters_pay(M, N, K, sms))) && rows)   // Stream-K: Stream-K
      return 14;                                       // over pairs where it pays, else whole tiles (for
                                                       // step 15, where the k loop is long); and in place
    if (path == 21 && (M + GH192_BM - 1) / GH192_BM >= 2) return 24;   // of step 21's (192,192) tiles
    return path;
  }
  // ANCHOR_END: few_waves
  if (path != 15 && path != 17 && path != 21 && path != 22) return path;
  if (off_lines(ldb)) return stream_k_clusters_pay(M, N, K, sms) ? 27 : 14;
  if (off_lines(lda)) return share_a_pays(M, N, K, sms) ? 23 : path;
  if (clusters_pay(M, N, K, sms, path)) return 14;
  if (narrow_persistent_pays(M, N, K, lda, ldb, sms, path)) return 26;
  return path == 17 && share_a_on_lines_pays(M, N, K, sms) ? 23 : path;
}
// ANCHOR_END: off_lines
// ANCHOR: split_pairs
/* Step 19's parts in pairs of CTAs that share an operand by multicast (19_split_k.cu has the
 * measurements): two tiles side by side along n, the same part of each, read the same rows of A,
 * and two along m the same columns of B.  Along n (1, sharing A) where the tile columns are even in
 * number; else along m (2, sharing B) where the tile rows are, and B lies off 128-byte lines (with
 * B on lines and A off them, sharing B lost as often as it won); else none (0).  The launcher also
 * needs the pairs to fit on the GPU at once. */
int gh_split_pairs(int M, int N, int ldb)
{
  if ((N + 127) / 128 % 2 == 0) return 1;
  return (M + 127) / 128 % 2 == 0 && off_lines(ldb) ? 2 : 0;
}
// ANCHOR_END: split_pairs
// ANCHOR: sk192_pays
/* Step 22 in place of step 15 where (192,192) tiles cover C with much less waste than (128,256)
 * ones: Stream-K's estimate over (192,192) tiles under GH_SK192_PAYS of the lower of step 15's and
 * whole tiles', at least a wave of (128,256) tiles, both operands on 128-byte lines (lda and ldb
 * multiples of 64 bf16, where step 22's boxes read whole lines).  The estimate over (192,192) tiles
 * (1.01 a k tile, where a (128,256) tile's costs 1: about 10% less per element of C) is too hopeful
 * where both tiles fit C alike: at 2048 x 2560 x 16384, 1920 x 2816 x 20480 and 2304 x 2560 x 8192
 * it was up to 6% below step 15's, yet step 22 ran 3-5% slower; hence the margin.  H200, the best
 * path (step 15 there) against step 22, two runs each in one process, at 14 random shapes on lines
 * with long K whose route was not step 22 and whose step 22 estimate was 6-18% under the others:
 * where it was at least 11% under (the bound) and the (128,256) tiles made a wave or more, step 22
 * was faster at all six, by 2.2-10.5% (6848 x 1664 x 26880 0.957 -> 1.058 of cuBLAS, 1728 x 3008 x
 * 30720 1.12 -> 1.20, 5376 x 960 x 14848, 5568 x 896 x 8448, 1344 x 4544 x 24832, 2112 x 7232 x
 * 16384); with fewer tiles than SMs it lost at two of two (1088 x 1088 x 15616 -1.1%, 1280 x 576 x
 * 29952 -3.2%), and nearer the bound it ranged from -1.8 to +5.6%.  In another run, with fewer
 * tiles than SMs, it was faster at 1728 x 1920 x 17920 (+10%), 768 x 2432 x 17472 and 1536 x 1856 x
 * 14080 and slower at 1344 x 2176 x 16896 and 1344 x 1344 x 13312: no rule there yet.  Checked with
 * the rule in place, the best path before and after in turns, two runs each, H200, at the 6 of 384
 * random shapes on lines (K 1024 to 32768) that it moves and that had no part in setting it: faster
 * at all six, by 1.5 to 19% in time (5504 x 1088 x 9984 0.74-0.75 -> 0.93 of cuBLAS, 7424 x 832 x
 * 24320 0.78-0.80 -> 0.89-0.93, 4160 x 1344 x 21504 0.89 -> 1.12-1.14, 5056 x 2880 x 28160
 * 0.95-0.97 -> 1.09, 4032 x 7296 x 31744 1.00-1.01 -> 1.02-1.03, 3776 x 1600 x 30208 0.84 -> 0.96);
 * and at the six above, 2 to 7% (6848 x 1664 x 26880 0.97 -> 1.07-1.08). */
#define GH_SK192_PAYS 0.89
static int sk192_pays(int M, int N, int K, int lda, int ldb, int sms)
{
  double stream_k, whole, tile_192, stream_k_192;
  gh_estimates(M, N, K, sms, &stream_k, &whole, &tile_192, &stream_k_192);
  return lda % 64 == 0 && ldb % 64 == 0 && tiles_of(M, N, GH_BM, GH_BN) >= sms &&
         stream_k_192 < GH_SK192_PAYS * (stream_k < whole ? stream_k : whole);
}
// ANCHOR_END: sk192_pays
// ANCHOR: one_wave_any_k
/* At any K, step 29 in place of step 16, whose (128,128) tiles, one a CTA, leave more SMs idle and
 * keep one consumer warpgroup of each CTA at work, and of step 26 (the band's (128,128) tiles and
 * step 26's place beyond K = 3072 were measured later: 29_one_wave.cu).  With (128,96) tiles, H200,
 * at 41 shapes of the band with K from 3144
 * to 7504 whose route was step 16, in one process: faster at 38 by 3.8-31.3%, 17% on average, 0.6-4.4%
 * slower at three (1536 x 1024 x 4096 0.601 -> 0.708 of cuBLAS, 1920 x 728 x 4600 0.459 -> 0.578).
 * At 24 other such shapes, the best path with this rule against it without, in two pairs of
 * processes: faster at all 24, by 10.0-32.6%, 21% on average (median ratio 0.61 -> 0.77).
 * And up to K = GH_ONE_WAVE_LINES_MAX_K, step 29 in place of Stream-K (steps 15 and 22) where both
 * operands lie on 128-byte lines (lda and ldb multiples of 64 bf16).  H200, step 29 against the best
 * path in two processes, at random shapes of the band with both operands on lines whose route was
 * Stream-K: at 36 with K from 3136 to 8192, faster at all 26 with K up to 6656, by 2.1-42.1%, 18% on
 * average (1344 x 800 x 5056 0.61 -> 0.87 of cuBLAS), at 5 of the 10 beyond, by -9.4 to +10.5%; and
 * at 30 others, held out to check that bound, faster at all 19 with K up to 6656, by 1.9-40.9% (median
 * ratio 0.70 -> 0.86), at 8 of the 11 beyond, by -7.2 to +24.8%.  With A or B off lines, step 29 was
 * faster at 4 of 40 such shapes: its loads of whole lines are what this rule rests on.
 * And where step 29 runs in pairs (gh_one_wave_pairs), in place of step 15 at any K and with either
 * operand off lines: H200, at 28 random shapes of the band with K from 3328 to 16384, held out,
 * faster than step 15 at 23, by up to 44.7%, 8.6% on average (-11.1% at 832 x 1464 x 15616); not in
 * place of step 27 (faster at 11 of 19 in a first set, 24.8% slower at 1552 x 1008 x 15560), nor
 * of step 22's exact splits (768 x 1536 x 16384: step 22 0.976 of cuBLAS, step 29 alone 0.750). */
#define GH_ONE_WAVE_LINES_MAX_K 6656
int gh_best_path(int M, int N, int K, int lda, int ldb, int sms)
{
  int path = best_path_by_shape(M, N, K, lda, ldb, sms);
  if (path == 15 && sk192_pays(M, N, K, lda, ldb, sms)) path = 22;   // (192,192) tiles waste far less
  if (!one_wave_band(M, N, sms)) return path;
  if (path == 16 || path == 26) return 29;
  if (path == 15 && gh_one_wave_pairs(M, N, K, sms)) return 29;   // in pairs that share A, for Stream-K
  int lines = lda % 64 == 0 && ldb % 64 == 0;          // both operands on 128-byte lines
  return (path == 15 || path == 22) && lines && K <= GH_ONE_WAVE_LINES_MAX_K ? 29 : path;
}
// ANCHOR_END: one_wave_any_k
/* Padded copies where step 16's (128,128) tiles would read both operands off 128-byte lines, every
 * other column starting in the middle of a 32-byte sector (lda and ldb 8 more than a multiple of
 * 16): there the copies (pad.cu, one launch) cost less than the loads they spare, and the route on
 * the copies is the one for operands on lines (step 26's narrow tiles, mostly).  H200, the best
 * path with and without the copies in one process, at shapes whose route was step 16: with both
 * leading dimensions 8 more than a multiple of 16, faster at all 17, by 3.9-34.7% (1160^3 0.650 ->
 * 0.802 of cuBLAS, 1080 x 1080 x 3000 0.509 -> 0.675, 744 x 1528 x 1816 0.427 -> 0.575); with one of
 * them so, 10.5% slower to 15.3% faster (+4% on average, 19 shapes); with both multiples of 16,
 * slower at all 13, by 2.2-27.3%; and slower at most shapes where the route already reads B in
 * clusters (steps 14, 20, 24, 27: 1800^3 0.847 -> 0.785, 5000^3 0.874 -> 0.799).  Checked at 17 other random shapes where the
 * rule holds: faster at all 17, by 6.3-34.6%, 19.5% on average (936 x 1424 x 5176 0.423 -> 0.547,
 * 2152 x 648 x 1864 0.619 -> 0.833).  Where the route is step 29, the copies pay from K =
 * GH_PAD_ONE_WAVE_MIN_K on (29_one_wave.cu has the shapes): faster at all 10 shapes with K from 1176
 * up, by 3.3-16.0%, slower at 5 of the 6 with K up to 872. */
// ANCHOR: sector_pad
#define GH_PAD_ONE_WAVE_MIN_K 1024
int gh_pad_pays(int M, int N, int K, int lda, int ldb, int sms)
{
  if (lda % 16 != 8 || ldb % 16 != 8 || M % 8 || K % 8) return 0;
  int path = gh_best_path(M, N, K, lda, ldb, sms);
  return path == 16 || (path == 29 && one_wave_band(M, N, sms) && K >= GH_PAD_ONE_WAVE_MIN_K);
}
// ANCHOR_END: sector_pad
/* What step 17's launcher runs for operands whose addresses are 16-byte aligned (as cudaMalloc's)
 * with leading dimensions lda and ldb, on an sm_90 GPU of `sms` SMs: gh_route's rule below GH_MIN_K
 * where a leading dimension is not a multiple of 8 bf16, else the best path's kernel (--route and
 * --cublas-choice print it) */
int gh_launch_route(int M, int N, int K, int lda, int ldb, int sms)
{
  if (thin_pays(M, N, K)) return 28;
  if (K < GH_MIN_K && (lda % 8 || ldb % 8)) return short_k_route(M, N, K, 1);
  if (gh_pad_pays(M, N, K, lda, ldb, sms))            // the copies' leading dimensions (pad.cu)
    return gh_best_path(M, N, K, (M + 63) / 64 * 64, (K + 63) / 64 * 64, sms);
  return gh_best_path(M, N, K, lda, ldb, sms);
}

/* ------------------------------------------------------------------------------------------------
 * The swizzle probe: what TMA's 128-byte swizzle does, read back from shared memory
 * ---------------------------------------------------------------------------------------------- */

// ANCHOR: probe
/* One CTA loads the (64 m, 64 k) box at (0,0) of A with a tensor map made as the GEMM's are,
 * waits on the mbarrier, and copies the 8 KiB of shared memory out as they lie. */
__global__ void gh_probe_kernel(const __grid_constant__ CUtensorMap tA, uint16_t *out)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  __shared__ __align__(1024) uint16_t box[64 * 64];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    gh_bar_init(&bar, 1);
    gh_fence_bar_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    gh_bar_expect(&bar, sizeof box);
    gh_tma_load(box, &tA, &bar, 0, 0);
  }
  gh_bar_wait(&bar, 0);
  for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x) out[i] = box[i];
#endif
}

/* A (64,64) matrix whose element (m,k) holds the number m + 64 k (as raw 16-bit words): after the
 * probe, word w of shared memory holds the (m,k) that TMA put there. */
int gh_swizzle_probe(int where[64 * 64])
{
  if (!gh_is_sm90()) return -1;
  static uint16_t h[64 * 64];
  uint16_t *dA, *dOut;
  for (int i = 0; i < 64 * 64; ++i) h[i] = (uint16_t)i;
  LK_CHECK(cudaMalloc(&dA, sizeof h));
  LK_CHECK(cudaMalloc(&dOut, sizeof h));
  LK_CHECK(cudaMemcpy(dA, h, sizeof h, cudaMemcpyHostToDevice));
  LK_CHECK(cudaMemset(dOut, 0xff, sizeof h));
  CUtensorMap map;
  if (!encode(&map, (const bf16 *)dA, 64, 64, 64, 64, GH_BK)) exit(1);
  gh_probe_kernel<<<1, 128>>>(map, dOut);
  LK_CHECK(cudaGetLastError());
  LK_CHECK(cudaMemcpy(h, dOut, sizeof h, cudaMemcpyDeviceToHost));
  LK_CHECK(cudaFree(dA));
  LK_CHECK(cudaFree(dOut));
  for (int i = 0; i < 64 * 64; ++i) where[i] = -1;
  for (int w = 0; w < 64 * 64; ++w)
    if (h[w] < 64 * 64) where[h[w]] = 2 * w;
  return 0;
}
// ANCHOR_END: probe
