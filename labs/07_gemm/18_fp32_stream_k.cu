/* Step 18 -- fp32 Stream-K: step 10's tile on persistent CTAs that share out the k loops.
 *
 * What changes from step 10: the grid.  Step 10 launches one CTA per (128,256) tile of C, so a
 * problem of fewer tiles than SMs leaves SMs idle for its whole run: 1000^3 is 8 x 4 = 32 tiles for
 * 132 SMs, 1536x1536x16384 is 12 x 6 = 72.  Here one CTA runs on each SM (one fits: 256 threads
 * of up to 255 registers) and takes a range of k tiles from chapter 6's Stream-K scheduler
 * (lib/tile_scheduler.h, lts_sk_*), exactly as step 15 does for bf16: the first waves of tiles
 * whole, the k loops of the remaining tiles cut into equal ranges, each CTA's range walked last
 * tile first.  The k loop of a unit is step 10's (fp32_tile.h, t10_ktiles) over the unit's k
 * tiles; a CTA that holds a tile's last k tile owns it, waits for the partial sums of the CTAs
 * before it (one workspace slot each, a flag with the launch's epoch), adds them in descending k
 * and runs step 10's epilogue.  The order of the sums is fixed: the result does not depend on
 * timing.  All CTAs are resident (at most one per SM, never more than the occupancy allows), and
 * a part is always its CTA's first unit, so a wait cannot cycle; a wait that lasts 10 s traps.
 *
 * A k tile here is only 8 deep (step 10's BK), so a range is cut at a fine grain: at 1000^3 the
 * 32 x 125 k tiles make 30 or 31 per SM, and each tile is cut 5 ways.
 *
 * The launcher is the fp32 best path: where the last wave of whole tiles is nearly full, it runs
 * step 10 instead (gemm_18_estimates says when; 07_gemm --route prints its choice).
 *
 * Measured (H100 80GB HBM3, ratio to SGEMM in the same run; step 10 in brackets): 1000^3 0.69
 *   (0.24), 500^3 0.40 (0.16), 1024x1024x8192 0.92 (0.25), 1536x1536x16384 0.92 (0.53),
 *   3000x3000x8000 0.88 (0.69), 5120x5120x4096 0.92 (0.84), 4097^3 0.84 (0.78); step 10's own
 *   0.86-0.92 at 2000^3, 4096^3, 8192^3 and 2048x2048x512, where the launcher runs it.
 *   Its k loop is the same code as step 10's (1219 instructions a k tile against 1200, 255
 *   registers against 236, no spills), yet it runs about 5 % slower a k tile: 1536x1536x16384
 *   takes 1.52 us a k tile of a CTA against step 10's 1.45 at 4096^3, and all tiles Stream-K at
 *   4096^3 takes the same 3.02 ms as whole waves and a Stream-K tail.  Not found why.
 *   Fewer CTAs than SMs (66, 100) were slower everywhere but at 500^3, where each tile is cut 17
 *   ways and its owner adds 16 slots of 128 KiB one after another (0.041 ms against 0.047).
 */
#include "fp32_tile.h"
#include "tile_scheduler.h"
#include "labkit.h"

#define S18_SLOT (T10_THREADS * 8 * 4 * T10_NJ)   /* floats of one CTA's partial sums: a (128,256) tile */


// ANCHOR: kernel
__global__ void __launch_bounds__(T10_THREADS, 1)
k18_fp32_stream_k(lts_sk_params sk, int M, int N, int K, float alpha, const float *__restrict__ A, int lda,
                  const float *__restrict__ B, int ldb, float beta, float *C, int ldc, int a_vec, int b_vec,
                  int c_vec, float *work, int *flags, int epoch)
{
  __shared__ __align__(16) float sA[2][T10_BK][T10_BM];
  __shared__ __align__(16) float sB[2][T10_BK][T10_LDB];
  int t = threadIdx.x, cta = blockIdx.x;
  for (int i = 0;; ++i) {
    lts_sk_unit u = lts_sk_unit_at(&sk, cta, i);
    if (!u.valid) break;
    int m0 = u.m * T10_BM, n0 = u.n * T10_BN, mleft = M - m0, nleft = N - n0;
    float acc[8][4 * T10_NJ] = {};
    t10_ktiles(acc, sA, sB, A + m0, lda, B + (size_t)n0 * ldb, ldb, mleft, nleft, K, u.k_begin, u.k_end,
               a_vec && mleft >= T10_BM, b_vec && nleft >= T10_BN);
    if (u.k_end < sk.k_iters) {                          // a part: to slot `cta`, then the flag
      float *slot = work + (size_t)cta * S18_SLOT + t;
#pragma unroll
      for (int j = 0; j < 8 * 4 * T10_NJ; ++j) slot[j * T10_THREADS] = acc[j / (4 * T10_NJ)][j % (4 * T10_NJ)];
      __syncthreads();                                   // all 256 threads' sums are written ...
      if (t == 0) gemm_flag_store(&flags[cta], epoch);    // ... then published (a release at GPU scope)
      continue;
    }
    for (int q = 1; q <= u.peers; ++q) {                 // the owner: add the peers' sums, k descending
      if (t == 0) gemm_flag_wait(&flags[cta - q], epoch); // traps after ~10 s: a lost partial sum
      __syncthreads();
      const float *slot = work + (size_t)(cta - q) * S18_SLOT + t;
#pragma unroll
      for (int j = 0; j < 8 * 4 * T10_NJ; ++j) acc[j / (4 * T10_NJ)][j % (4 * T10_NJ)] += __ldcg(slot + j * T10_THREADS);
    }
    t10_epilogue(acc, alpha, beta, C, ldc, m0, n0, mleft, nleft, c_vec);
  }
}
// ANCHOR_END: kernel

/* CTAs that fit on the GPU at once (one per SM): the Stream-K grid, and the P of the estimates */
static int s18_slots(void)
{
  static int slots;
  if (!slots) {
    int dev, sms, per_sm;
    LK_CHECK(cudaGetDevice(&dev));
    LK_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    LK_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k18_fp32_stream_k, T10_THREADS, 0));
    if (per_sm < 1) { fprintf(stderr, "gemm_18_fp32_stream_k: the kernel does not fit on an SM\n"); exit(1); }
    slots = sms * per_sm;
  }
  return slots;
}

// ANCHOR: estimates
/* Stream-K against whole tiles (step 10), in k tiles of one CTA, on P resident CTAs: whole tiles
 * take ceil(T/P) waves of k tiles; Stream-K the even share T k / P, 5 % slower per k tile (its
 * k loop measured so at 4096^3, 8192^3 and 1536x1536x16384, all tiles Stream-K or few), and 2 k
 * tiles more for each part a tile is cut into (the owner adds 128 KiB a peer).  Fitted on an
 * H100 at 500^3 to 8192^3: Stream-K where it wins, by 1.2-2.9x, from 1000^3, 1536x1536x16384,
 * 3000x3000x8000 and 5120x5120x4096; whole tiles at 2000^3, 4096^3 and 8192^3, where they win
 * by 2-4 %. */
void gemm_18_estimates(int M, int N, int K, int P, double *stream_k, double *whole)
{
  double T = (double)((M + T10_BM - 1) / T10_BM) * ((N + T10_BN - 1) / T10_BN), k = (K + T10_BK - 1) / T10_BK;
  double ctas = T * k < P ? T * k : P, parts = ceil(ctas / T);
  *stream_k = 1.05 * T * k / ctas + 2 * parts;
  *whole = ceil(T / P) * k;
}
// ANCHOR_END: estimates

// ANCHOR: launch
void gemm_18_fp32_stream_k(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
                           float beta, float *C, int ldc)
{
  double stream_k, whole;
  gemm_18_estimates(M, N, K, s18_slots(), &stream_k, &whole);
  if (whole <= stream_k) {                               // the last wave is nearly full: step 10
    gemm_10_fp32_tuned(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  static int epoch;
  static float *work;
  static int *flags;
  int slots = s18_slots();
  if (!work) {                                          // one slot and one flag per resident CTA
    LK_CHECK(cudaMalloc(&work, (size_t)slots * S18_SLOT * sizeof(float)));   // 128 KiB a CTA
    LK_CHECK(cudaMalloc(&flags, (size_t)slots * sizeof(int)));
    LK_CHECK(cudaMemset(flags, 0, (size_t)slots * sizeof(int)));
  }
  int tiles_m = (M + T10_BM - 1) / T10_BM, tiles_n = (N + T10_BN - 1) / T10_BN, tiles = tiles_m * tiles_n;
  int k_iters = (K + T10_BK - 1) / T10_BK;
  long long iters = (long long)tiles * k_iters;
  int ctas = iters < slots ? (int)iters : slots;         // never a CTA without a k tile
  lts_params order;
  lts_sk_params sk;
  const char *err;
  if (!lts_init(&order, tiles_m, tiles_n, 1, 1, 1, 1, 1, &err) ||   // m fastest, as step 10's grid
      !lts_sk_init(&sk, &order, k_iters, ctas, lts_sk_default_tiles(tiles, ctas, k_iters), &err)) {
    fprintf(stderr, "gemm_18_fp32_stream_k: %s\n", err);
    exit(1);
  }
  epoch = epoch == 0x7fffffff ? 1 : epoch + 1;           // flags of earlier launches never match
  if (epoch == 1) LK_CHECK(cudaMemset(flags, 0, (size_t)slots * sizeof(int)));
  k18_fp32_stream_k<<<ctas, T10_THREADS>>>(sk, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, gemm_aligned16(A, lda, 4),
                                           gemm_aligned16(B, ldb, 4), gemm_aligned16(C, ldc, 4), work, flags, epoch);
  LK_LAUNCH();
}
// ANCHOR_END: launch
