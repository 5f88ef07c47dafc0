/* Step 18 -- fp32 Stream-K: step 10's tile on persistent CTAs that share out the k loops.
 *
 * What changes from step 10: the grid.  Step 10 launches one CTA per (128,256) tile of C, so a
 * problem of fewer tiles than SMs leaves SMs idle for its whole run: 1000^3 is 8 x 4 = 32 tiles for
 * 132 SMs, 1536x1536x16384 is 12 x 6 = 72.  Here one CTA runs on each SM (one fits: 256 threads of
 * up to 255 registers) and takes a range of k tiles from chapter 6's Stream-K scheduler
 * (lib/tile_scheduler.h, lts_sk_*), exactly as step 15 does for bf16: the first waves of tiles
 * whole, the k loops of the remaining tiles cut into equal ranges, each CTA's range walked whole
 * tiles first, then the part of its last tile, then its first tile.  The k loop of a unit is step
 * 31's (fp32_tile.h, t31_ktiles; step 10's, t10_ktiles, until step 31 existed) over the unit's k
 * tiles; a CTA that holds a tile's last k tile owns it, waits for the partial sums of the CTAs
 * before it (one workspace slot each, a flag with the launch's epoch), adds them in descending k
 * and runs step 10's epilogue.  The order of the sums is fixed: the result does not depend on
 * timing.  All CTAs are resident (at most one per SM, never more than the occupancy allows), and a
 * part follows only whole tiles in its CTA's walk, so a wait cannot cycle; a wait that lasts 10 s
 * traps.
 *
 * A k tile here is only 8 deep (step 10's BK), so a range is cut at a fine grain: at 1000^3 the
 * 32 x 125 k tiles make 30 or 31 per SM, and each tile is cut 5 ways.
 *
 * Where the tiles fit on the SMs twice over or more (1000^3: 32 tiles, 132 SMs), the launcher cuts
 * every tile's k loop into the same number of parts s instead, one CTA each, and the parts add
 * their sums together (k18_split): each writes its slot, waits for the other s - 1, adds 1/s of
 * the tile from all s slots in k order and writes that much of C -- step 19's shared fix-up.  An
 * owner of Stream-K's reads each peer's whole slot in turn (at 1000^3, 4 or 5 slots of 128 KiB);
 * a part here reads 128 KiB in all, at the price of the SMs beyond s T, which idle.
 *
 * The launcher is the fp32 best path: where the last wave of whole tiles is nearly full, it runs
 * step 31 (step 10 before it) instead, and split-K where its estimate is below Stream-K's
 * (gemm_18_estimates says when; 07_gemm --route prints its choice).
 *
 * With step 31's k loop: T31_SMEM of dynamic shared memory (four stages), and two kernels of each
 * kind by A's alignment, as step 31's (A by 16-byte or by 4-byte copies).  The edge tiles need no
 * kernel of their own: step 31's loop copies every aligned float4 of A as one and B by 4-byte
 * copies wherever the tile is.  Measured on an H200, the launcher before (step 10's k loop) and
 * after, one process of each build in turn, twice (07_gemm --versions 0,18 --shapes 0; ratio to
 * SGEMM in the same run): 1000^3 0.82 -> 0.91, 999^3 0.75 -> 0.89, 1024^3 0.92 -> 1.00, 768^3
 * 0.94 -> 0.98, 1000x1000x2000 0.88 -> 1.02, 2000x500x1000 0.82 -> 0.92, 1024x1024x4096 0.87 ->
 * 1.01, 700x900x3000 0.88 -> 1.05, 1024x1024x8192 0.95 -> 1.11, 1536x1536x16384 0.92 -> 1.09,
 * 3000x3000x8000 0.89 -> 1.10, 5120x5120x4096 0.92 -> 1.09, 300x600x2000 0.57 -> 0.60; 500^3
 * level (0.028 ms; the fix-up is most of it).
 * The estimates below are those fitted to step 10's k loop, not fitted again: with step 31's loop,
 * each of the three choices forced in turn at 15 shapes (H200), they chose the fastest at 14; at
 * 2000^3 they choose whole tiles, 1.3 % behind Stream-K.
 *
 * PDL (hopper.h): the launcher launches both kernels with programmatic dependent launch, so that
 * the next call's grid is launched while this one ends; each CTA waits for the launch ahead
 * before it reads anything (gh_grid_wait_any; a no-op before sm_90, where the launches are plain).
 * The Stream-K kernel releases the next launch at its start, the split kernel at its end: each
 * place measured in both kernels (H200, ratio to SGEMM), the split kernel read 1000^3 0.92 released
 * at the start and 0.94 at the end (1000x1000x250 0.67 and 0.70), the Stream-K kernel 1344x1344x8192
 * 0.984 and 0.951 (1024x1024x4096 1.015 and 0.984).  Why, we have not found; the compiled code
 * differs beyond the release (the Stream-K kernel's PTX changed with the split kernel's release).
 * Where the time went at 1000^3 without PDL (%globaltimer marks per CTA, H200, a build that is not
 * committed; the mean over the 128 CTAs): the k loop 42.7 us (1.32 us a k tile after about 1.4 of
 * start, as fast as step 31's at 4096^3), writing the slot 3.4, waiting for the other parts 1.1-1.2,
 * reading the slots 3.4, C 1.0, and 2.7 us from the last CTA's end to the next call's first start;
 * with PDL released at the start that gap was 0.7 us.  The build before (plain launches) and after
 * (07_gemm --versions 0,18 --shapes 0, ratio to SGEMM, two processes or more of each build, H200):
 * 1000^3 0.91 -> 0.94, 999^3 0.88-0.89 -> 0.91, 768^3 0.98-0.99 -> 1.02-1.03, 1024^3 1.00-1.01 ->
 * 1.03, 640^3 0.79-0.80 -> 0.83-0.84, 1000x1000x2000 1.01-1.02 -> 1.03-1.04, 1000x1000x250 0.66 ->
 * 0.70, 300x600x2000 0.60 -> 0.62; where Stream-K runs, 0-1 % (1024x1024x4096 1.01 -> 1.01,
 * 700x900x3000 1.05 -> 1.06, 2560x2560x2048 1.13 -> 1.13).
 * Own pairs: each part keeps the pairs it adds itself in acc and writes only the others' to its
 *   slot.  Where s <= 8 (kernels k18_split_few, k18_split_few_a4) a switch over (s, p) makes every
 *   pair range a literal.  H200, 07_gemm --versions 0,18 --shapes 0, ratio to SGEMM, the build
 *   before -> after (one process each, alternated, two to three times): 1000^3 0.94 -> 0.99, 999^3
 *   0.91 -> 0.96, 1024^3 1.03 -> 1.10-1.11, 768^3 (7 parts) 1.02-1.03 -> 1.22, 640^3 (8 parts)
 *   0.82-0.84 -> 0.98-1.00, 700x900x500 (5 parts) 0.87 -> 0.99, 1000x1000x2000 1.03 -> 1.07,
 *   1000x1000x250 0.70 -> 0.77, 2000x500x1000 0.94 -> 0.99, 800^3 0.81-0.82 -> 0.87-0.88.  Where
 *   s > 8 (k18_split, k18_split_a4, at most 4 pairs a part) a switch over the first pair copies
 *   them out of acc, and the fix-up runs 4 pairs at offsets computed once (it had run up to 16,
 *   each tested, over all s slots): ms a call, three processes each, 500^3 0.026 -> 0.019,
 *   300x600x2000 0.044 -> 0.036, 301x599x2003 0.045 -> 0.038, 512x768x1000 0.033 -> 0.026 (0.81 -> 1.00 of
 *   SGEMM), 640x512x2000 0.045 -> 0.038 (0.89 -> 1.07), 400x400x1000 0.032 -> 0.023-0.024,
 *   256x512x4096 (32 parts) 0.052-0.053 -> 0.041-0.042.  More than the bytes saved (1/s of them)
 *   explain; the phases were not timed.  With the pair range known only at run time (an unrolled
 *   test on every pair of every slot) the idea had lost 9 % or more at 8 to 15 parts.  One owner
 *   a tile that adds all s - 1 slots (peers d k tiles shorter) lost at 1000^3 (0.85 at d = 0 to 2)
 *   and won only at 1024^3.
 * Tried and not kept (H200): each part keeping the pairs it adds itself in shared memory, so that
 *   its slot holds only the others' (writing 3.4 -> 2.8 us, reading 3.4 -> 2.7 at 1000^3), but
 *   ptxas then allocated the k loop's registers differently and it took 45.3 us, not 42.7 (with
 *   PDL released at the start in both: 1000^3 0.92 -> 0.90, 1000x1000x4000 1.04 -> 0.99); the
 *   parts of a tile as one cluster, their sums added through distributed shared memory (mapa,
 *   ld.shared::cluster) with no workspace: only 30 clusters of 4 fit at once on the H200's 132 SMs
 *   (1000^3 needs 32), and with 2 or 3 parts forced at 1000^3 it took 0.100 and 0.070 ms, the
 *   workspace 0.097 and 0.069 in another run.
 *
 * Before step 31 (step 10's k loop, the measurements below):
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
 * Split-K against Stream-K, both forced, two runs in one process each on an H200 (ms, the two
 *   runs' ratios to SGEMM): 1000^3 0.064 against 0.073-0.074 (0.79 against 0.69), 500^3 0.028
 *   against 0.046 (0.70-0.75 against 0.43-0.46), 768^3 0.036 against 0.040, 1024^3 0.061
 *   against 0.063-0.064, 1000x1000x2000 0.118 against 0.124, 2000x500x1000 0.065 against
 *   0.073-0.074, 300x600x2000 0.049 against 0.058; level at 1024x1024x4096 (0.207); behind at
 *   700x900x3000 (0.134 against 0.130: 24 tiles in 5 parts leave 12 SMs idle) and 1024x1024x8192
 *   (0.401 against 0.396).  Split-K's time fits 1.52 us a k tile of its longest part and 12-22 us
 *   more; the estimate's fixed 6 puts the choice right at all ten.
 * Where 1000^3's 62 us a kernel go (%globaltimer marks per CTA, H200, a build that is not
 *   committed): k loops 48.7 us on average but 54 in the slowest CTAs, where 1024^3, which has no
 *   edge tiles, takes 49.2 at most: 1000^3's edge tiles (104 rows, 232 columns) load every element
 *   of A or B on its own; writing the slot 2.0, waiting for the other parts 2.1, reading the
 *   slots 3.3, C 1.1; 2.0-2.3 us more between launches.  So where M is not a multiple of 128 and A
 *   was 16-byte aligned, or N not of 256 and B was, the launcher ran k18_split_edges, whose edge
 *   tiles loaded each float4 that lay inside as one (t10_load; gone with step 31).  Against
 *   k18_split in one process, two runs, TFLOP/s: 1000^3 32.2 against 31.1, 1000x1000x2000 35.4
 *   against 33.9, 1000x1000x4000 37.6 against 35.1, 2000x500x1000 32.3 against 30.6, 500^3 8.9
 *   against 8.8; where it does not run it would cost 1-2 % (1024^3 34.5 against 35.2, 768^3 24.7
 *   against 24.9, 999^3, unaligned, 29.1 against 29.4), so k18_split, the same code as before it,
 *   stayed there.
 * Tried and not kept (other runs, same GPU): slots stored a float4 per pair and read four slots
 *   at a time, 500^3 0.026 ms against 0.028 and 300x600x2000 0.046 against 0.049, but 1000^3 0.066
 *   against 0.064 and 1000x1000x250 0.029 against 0.027 (lost at six of eleven shapes); PDL on top
 *   of it took 0.5-1 us off each call.
 */
#include "fp32_tile.h"
#include "tile_scheduler.h"
#include "labkit.h"
#include "hopper.h"

#define S18_SLOT (T10_THREADS * 8 * 4 * T10_NJ)   /* floats of one CTA's partial sums: a (128,256) tile */


// ANCHOR: kernel
/* a16: A is 16-byte aligned (a literal: two kernels, as step 31's) */
__device__ static __forceinline__ void s18_stream_k(int a16, lts_sk_params sk, int M, int N, int K, float alpha,
                                                    const float *__restrict__ A, int lda, const float *__restrict__ B,
                                                    int ldb, float beta, float *C, int ldc, int c_vec, float *work,
                                                    int *flags, int epoch)
{
  extern __shared__ __align__(16) float smem[];
  int t = threadIdx.x, cta = blockIdx.x;
  gh_grid_wait_any();                                    // PDL: the launch ahead has ended, its writes visible
  gh_grid_release_any();                                 // the next may launch; its CTAs wait in their own wait
  for (int i = 0;; ++i) {
    lts_sk_unit u = lts_sk_unit_at(&sk, cta, i);
    if (!u.valid) break;
    int m0 = u.m * T10_BM, n0 = u.n * T10_BN, mleft = M - m0, nleft = N - n0;
    float acc[8][4 * T10_NJ] = {};
    t31_ktiles(a16, acc, smem, A + m0, lda, B + (size_t)n0 * ldb, ldb, mleft, nleft, K, u.k_begin, u.k_end);
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
__global__ void __launch_bounds__(T10_THREADS, 1)
k18_fp32_stream_k(lts_sk_params sk, int M, int N, int K, float alpha, const float *__restrict__ A, int lda,
                  const float *__restrict__ B, int ldb, float beta, float *C, int ldc, int c_vec, float *work,
                  int *flags, int epoch)
{
  s18_stream_k(1, sk, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, c_vec, work, flags, epoch);
}
__global__ void __launch_bounds__(T10_THREADS, 1)
k18_fp32_stream_k_a4(lts_sk_params sk, int M, int N, int K, float alpha, const float *__restrict__ A, int lda,
                     const float *__restrict__ B, int ldb, float beta, float *C, int ldc, int c_vec, float *work,
                     int *flags, int epoch)
{
  s18_stream_k(0, sk, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, c_vec, work, flags, epoch);
}

__global__ void k18_split(int s, int tiles_m, int M, int N, int K, float alpha, const float *__restrict__ A, int lda,
                          const float *__restrict__ B, int ldb, float beta, float *C, int ldc, int c_vec,
                          float *work, int *flags, int epoch);
__global__ void k18_split_a4(int s, int tiles_m, int M, int N, int K, float alpha, const float *__restrict__ A,
                             int lda, const float *__restrict__ B, int ldb, float beta, float *C, int ldc, int c_vec,
                             float *work, int *flags, int epoch);
__global__ void k18_split_few(int s, int tiles_m, int M, int N, int K, float alpha, const float *__restrict__ A,
                              int lda, const float *__restrict__ B, int ldb, float beta, float *C, int ldc, int c_vec,
                              float *work, int *flags, int epoch);
__global__ void k18_split_few_a4(int s, int tiles_m, int M, int N, int K, float alpha, const float *__restrict__ A,
                                 int lda, const float *__restrict__ B, int ldb, float beta, float *C, int ldc,
                                 int c_vec, float *work, int *flags, int epoch);

/* CTAs that fit on the GPU at once (one per SM): the Stream-K grid, and the P of the estimates */
static int s18_slots(void)
{
  static int slots;
  if (!slots) {
    int dev, sms, per_sm;
    LK_CHECK(cudaGetDevice(&dev));
    LK_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    LK_CHECK(cudaFuncSetAttribute(k18_fp32_stream_k, cudaFuncAttributeMaxDynamicSharedMemorySize, T31_SMEM));
    LK_CHECK(cudaFuncSetAttribute(k18_fp32_stream_k_a4, cudaFuncAttributeMaxDynamicSharedMemorySize, T31_SMEM));
    LK_CHECK(cudaFuncSetAttribute(k18_split, cudaFuncAttributeMaxDynamicSharedMemorySize, T31_SMEM));
    LK_CHECK(cudaFuncSetAttribute(k18_split_a4, cudaFuncAttributeMaxDynamicSharedMemorySize, T31_SMEM));
    LK_CHECK(cudaFuncSetAttribute(k18_split_few, cudaFuncAttributeMaxDynamicSharedMemorySize, T31_SMEM));
    LK_CHECK(cudaFuncSetAttribute(k18_split_few_a4, cudaFuncAttributeMaxDynamicSharedMemorySize, T31_SMEM));
    LK_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k18_fp32_stream_k, T10_THREADS, T31_SMEM));
    if (per_sm < 1) { fprintf(stderr, "gemm_18_fp32_stream_k: the kernel does not fit on an SM\n"); exit(1); }
    slots = sms * per_sm;
  }
  return slots;
}

// ANCHOR: split
/* Split-K with a shared fix-up, where the tiles fit on the SMs twice over or more: tile cta / s,
 * part p = cta % s, k tiles [p k / s, (p + 1) k / s).  Part p adds pairs [32 p / s, 32 (p + 1) / s)
 * of the tile's 32 pairs of each thread -- a pair is 4 rows of one column, acc[4h .. 4h+3][j], one
 * float4 of C.  It keeps those pairs' sums in registers, leaves the others' in slot `cta`, raises
 * its flag and waits for the other s - 1 of its tile; then it adds their slots to its own sums in
 * a fixed order (its own first, then parts p + 1, ..., s - 1, 0, ..., p - 1) and writes C.
 * Which registers it keeps depends on p, and registers are not indexed at run time, so (`few`, a
 * literal: two kernels each):
 *   few = 1, 2 <= s <= 8: a switch over (s, p) gives each case its pair range as literals, so
 *     that the pair tests fold away and every offset within a slot is a literal (only which slot
 *     comes next depends on s and p at run time);
 *   few = 0, s > 8: a part adds at most 4 pairs; a switch over the first, q0, copies them out of
 *     acc, and the fix-up tests q < nq on 4 pairs.
 * a16: A is 16-byte aligned (a literal, as few). */
#define S18_PAIRS (2 * 4 * T10_NJ)             /* (h, j) pairs of a thread: 2 row halves x 16 columns */
#define S18_MAX_PARTS S18_PAIRS                /* so that every part adds at least one pair */
#define S18_FEW_MAX_PARTS 8                    /* few = 1 takes 2 <= s <= 8: 35 cases of (s, p) */
#define S18_MANY_MAX_Q 4                       /* few = 0, s > 8: pairs a part adds, at most */
/* few = 1: part p of s adds the others' slots to its pairs [q0, q0 + nq), kept in acc, and writes
 * them to C; q0 and nq are literals (the switch in s18_split) */
__device__ static __forceinline__ void s18_few_fixup(int q0, int nq, float acc[8][4 * T10_NJ], int s, int p,
                                                    int tile, const float *work, int t, float alpha, float beta,
                                                    float *C, int ldc, int m0, int n0, int mleft, int nleft, int fc)
{
  for (int i = 1; i < s; ++i) {                          // parts p + 1, ..., s - 1, 0, ..., p - 1
    int u = p + i < s ? p + i : p + i - s;
    const float *sl = work + (size_t)(tile * s + u) * S18_SLOT + t;
#pragma unroll
    for (int q = 0; q < S18_PAIRS; ++q)
      if (q >= q0 && q < q0 + nq) {
        int h = q / (4 * T10_NJ), j = q % (4 * T10_NJ);
#pragma unroll
        for (int r = 0; r < 4; ++r) acc[4 * h + r][j] += __ldcg(sl + ((4 * h + r) * 4 * T10_NJ + j) * T10_THREADS);
      }
  }
  int warp = t / 32, lane = t % 32;                      // where the pairs lie in C: t10_epilogue's map
  int wm = 64 * (warp % 2), wn = 16 * T10_NJ * (warp / 2), lm = lane % 8, ln = lane / 8;
#pragma unroll
  for (int q = 0; q < S18_PAIRS; ++q)
    if (q >= q0 && q < q0 + nq) {
      int h = q / (4 * T10_NJ), j = q % (4 * T10_NJ);
      float r[4] = { acc[4 * h][j], acc[4 * h + 1][j], acc[4 * h + 2][j], acc[4 * h + 3][j] };
      t10_store4(r, alpha, beta, C, ldc, m0, n0, wm + 4 * lm + 32 * h, wn + 4 * ln + (j % 4) + 16 * (j / 4), mleft,
                 nleft, fc);
    }
}
/* few = 0: pairs Q .. Q + 3 of acc (Q a literal) into v; past the last pair, copies of it */
__device__ static __forceinline__ void s18_keep(int Q, const float acc[8][4 * T10_NJ], float4 v[S18_MANY_MAX_Q])
{
#pragma unroll
  for (int q = 0; q < S18_MANY_MAX_Q; ++q) {
    int P = Q + q < S18_PAIRS ? Q + q : S18_PAIRS - 1, h = P / (4 * T10_NJ), j = P % (4 * T10_NJ);
    v[q] = make_float4(acc[4 * h][j], acc[4 * h + 1][j], acc[4 * h + 2][j], acc[4 * h + 3][j]);
  }
}
__device__ static __forceinline__ void s18_split(int a16, int few, int s, int tiles_m, int M, int N, int K, float alpha,
                                                const float *__restrict__ A, int lda,
                                                const float *__restrict__ B, int ldb, float beta, float *C,
                                                int ldc, int c_vec, float *work, int *flags, int epoch)
{
  extern __shared__ __align__(16) float smem[];
  int t = threadIdx.x, cta = blockIdx.x, tile = cta / s, p = cta % s;
  int m0 = (tile % tiles_m) * T10_BM, n0 = (tile / tiles_m) * T10_BN, mleft = M - m0, nleft = N - n0;
  int k_iters = (K + T10_BK - 1) / T10_BK;
  int kb = (int)((long long)p * k_iters / s), ke = (int)((long long)(p + 1) * k_iters / s);
  gh_grid_wait_any();                                    // PDL: the launch ahead has ended, its writes visible
  float acc[8][4 * T10_NJ] = {};
  t31_ktiles(a16, acc, smem, A + m0, lda, B + (size_t)n0 * ldb, ldb, mleft, nleft, K, kb, ke);
  int q0 = p * S18_PAIRS / s, nq = (p + 1) * S18_PAIRS / s - q0;   // the pairs it adds, kept in acc
  float *slot = work + (size_t)cta * S18_SLOT + t;      // value i of thread t at i * 256 + t
#pragma unroll
  for (int i = 0; i < 8 * 4 * T10_NJ; ++i) {             // value i = (row, column j): pair (row / 4) * 16 + j
    int row = i / (4 * T10_NJ), j = i % (4 * T10_NJ);
    if ((unsigned)((row / 4) * (4 * T10_NJ) + j - q0) >= (unsigned)nq) slot[i * T10_THREADS] = acc[row][j];
  }
  __syncthreads();                                       // all 256 threads' sums are written ...
  if (t == 0) {
    gemm_flag_store(&flags[cta], epoch);                 // ... then published
    for (int u = 0; u < s; ++u)                          // and the tile's other parts awaited
      if (u != p) gemm_flag_wait(&flags[tile * s + u], epoch);
  }
  __syncthreads();
  int warp = t / 32, lane = t % 32;                      // where the pairs lie in C: t10_epilogue's map
  int wm = 64 * (warp % 2), wn = 16 * T10_NJ * (warp / 2), lm = lane % 8, ln = lane / 8;
  int fc = c_vec && mleft >= T10_BM && nleft >= T10_BN;
  if (few) {                                             // case (s, p): its pairs, as literals
#define S18_CASE(S, P) \
  case S * S18_FEW_MAX_PARTS + P: \
    s18_few_fixup(P * S18_PAIRS / S, (P + 1) * S18_PAIRS / S - P * S18_PAIRS / S, acc, s, p, tile, work, t, \
                  alpha, beta, C, ldc, m0, n0, mleft, nleft, fc); \
    break;
    switch (s * S18_FEW_MAX_PARTS + p) {
    S18_CASE(2, 0) S18_CASE(2, 1)
    S18_CASE(3, 0) S18_CASE(3, 1) S18_CASE(3, 2)
    S18_CASE(4, 0) S18_CASE(4, 1) S18_CASE(4, 2) S18_CASE(4, 3)
    S18_CASE(5, 0) S18_CASE(5, 1) S18_CASE(5, 2) S18_CASE(5, 3) S18_CASE(5, 4)
    S18_CASE(6, 0) S18_CASE(6, 1) S18_CASE(6, 2) S18_CASE(6, 3) S18_CASE(6, 4) S18_CASE(6, 5)
    S18_CASE(7, 0) S18_CASE(7, 1) S18_CASE(7, 2) S18_CASE(7, 3)
    S18_CASE(7, 4) S18_CASE(7, 5) S18_CASE(7, 6)
    S18_CASE(8, 0) S18_CASE(8, 1) S18_CASE(8, 2) S18_CASE(8, 3)
    S18_CASE(8, 4) S18_CASE(8, 5) S18_CASE(8, 6) S18_CASE(8, 7)
    default: __trap();                                   // the launcher never sends s > 8 here
    }
#undef S18_CASE
    gh_grid_release_any();                               // the next may launch (below)
    return;
  }
  if (nq > S18_MANY_MAX_Q) __trap();                    // few = 0: s > 8, the launcher's promise
  float4 v[S18_MANY_MAX_Q];                              // its pairs q0 .. q0 + nq - 1, out of acc
  switch (q0) {                                          // by a literal q0: no index into acc at run time
#define S18_KEEP(Q) case Q: s18_keep(Q, acc, v); break;
  S18_KEEP(0) S18_KEEP(1) S18_KEEP(2) S18_KEEP(3) S18_KEEP(4) S18_KEEP(5) S18_KEEP(6) S18_KEEP(7)
  S18_KEEP(8) S18_KEEP(9) S18_KEEP(10) S18_KEEP(11) S18_KEEP(12) S18_KEEP(13) S18_KEEP(14) S18_KEEP(15)
  S18_KEEP(16) S18_KEEP(17) S18_KEEP(18) S18_KEEP(19) S18_KEEP(20) S18_KEEP(21) S18_KEEP(22) S18_KEEP(23)
  S18_KEEP(24) S18_KEEP(25) S18_KEEP(26) S18_KEEP(27) S18_KEEP(28) S18_KEEP(29) S18_KEEP(30) S18_KEEP(31)
#undef S18_KEEP
  }
  int off[S18_MANY_MAX_Q];                               // pair q0 + q: (4h, j) of a slot, rows 16 apart
#pragma unroll
  for (int q = 0; q < S18_MANY_MAX_Q; ++q) {
    int h = (q0 + q) / (4 * T10_NJ), j = (q0 + q) % (4 * T10_NJ);
    off[q] = (4 * h * 4 * T10_NJ + j) * T10_THREADS;
  }
  for (int i = 1; i < s; ++i) {                          // parts p + 1, ..., s - 1, 0, ..., p - 1 (as above)
    int u = p + i < s ? p + i : p + i - s;
    const float *slot = work + (size_t)(tile * s + u) * S18_SLOT + t;
#pragma unroll
    for (int q = 0; q < S18_MANY_MAX_Q; ++q)             // all of a slot's loads in flight at once
      if (q < nq) {
        const float *e = slot + off[q];
        v[q].x += __ldcg(e);
        v[q].y += __ldcg(e + 4 * T10_NJ * T10_THREADS);
        v[q].z += __ldcg(e + 8 * T10_NJ * T10_THREADS);
        v[q].w += __ldcg(e + 12 * T10_NJ * T10_THREADS);
      }
  }
#pragma unroll
  for (int q = 0; q < S18_MANY_MAX_Q; ++q)
    if (q < nq) {
      int h = (q0 + q) / (4 * T10_NJ), j = (q0 + q) % (4 * T10_NJ);
      float r[4] = { v[q].x, v[q].y, v[q].z, v[q].w };
      t10_store4(r, alpha, beta, C, ldc, m0, n0, wm + 4 * lm + 32 * h, wn + 4 * ln + (j % 4) + 16 * (j / 4), mleft,
                 nleft, fc);
    }
  gh_grid_release_any();                                 // the next may launch: here, not at the start (above)
}
__global__ void __launch_bounds__(T10_THREADS, 1)
k18_split(int s, int tiles_m, int M, int N, int K, float alpha, const float *__restrict__ A, int lda,
          const float *__restrict__ B, int ldb, float beta, float *C, int ldc, int c_vec, float *work, int *flags,
          int epoch)
{
  s18_split(1, 0, s, tiles_m, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, c_vec, work, flags, epoch);
}
__global__ void __launch_bounds__(T10_THREADS, 1)
k18_split_a4(int s, int tiles_m, int M, int N, int K, float alpha, const float *__restrict__ A, int lda,
             const float *__restrict__ B, int ldb, float beta, float *C, int ldc, int c_vec, float *work, int *flags,
             int epoch)
{
  s18_split(0, 0, s, tiles_m, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, c_vec, work, flags, epoch);
}
__global__ void __launch_bounds__(T10_THREADS, 1)
k18_split_few(int s, int tiles_m, int M, int N, int K, float alpha, const float *__restrict__ A, int lda,
              const float *__restrict__ B, int ldb, float beta, float *C, int ldc, int c_vec, float *work, int *flags,
              int epoch)
{
  s18_split(1, 1, s, tiles_m, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, c_vec, work, flags, epoch);
}
__global__ void __launch_bounds__(T10_THREADS, 1)
k18_split_few_a4(int s, int tiles_m, int M, int N, int K, float alpha, const float *__restrict__ A, int lda,
                 const float *__restrict__ B, int ldb, float beta, float *C, int ldc, int c_vec, float *work,
                 int *flags, int epoch)
{
  s18_split(0, 1, s, tiles_m, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, c_vec, work, flags, epoch);
}
// ANCHOR_END: split

// ANCHOR: estimates
/* Stream-K against whole tiles (step 10), in k tiles of one CTA, on P resident CTAs: whole tiles
 * take ceil(T/P) waves of k tiles; Stream-K the even share T k / P, 5 % slower per k tile (its
 * k loop measured so at 4096^3, 8192^3 and 1536x1536x16384, all tiles Stream-K or few), and 2 k
 * tiles more for each part a tile is cut into (the owner adds 128 KiB a peer).  Fitted on an
 * H100 at 500^3 to 8192^3: Stream-K where it wins, by 1.2-2.9x, from 1000^3, 1536x1536x16384,
 * 3000x3000x8000 and 5120x5120x4096; whole tiles at 2000^3, 4096^3 and 8192^3, where they win
 * by 2-4 %.
 * Split-K where the T tiles fit on the P CTAs twice or more: s = P / T parts a tile, at most one a
 * S18_SPLIT_MIN_K k tiles and at most S18_MAX_PARTS; its estimate is the longest part's k loop at
 * Stream-K's rate, 1.05 ceil(k / s), and S18_SPLIT_FIXUP for the shared fix-up (fitted on an H200
 * at ten shapes, chapter 7).  Returns s, and *split only where s >= 2 (else HUGE_VAL). */
#define S18_SPLIT_MIN_K 4
#define S18_SPLIT_FIXUP 6
int gemm_18_estimates(int M, int N, int K, int P, double *stream_k, double *whole, double *split)
{
  double T = (double)((M + T10_BM - 1) / T10_BM) * ((N + T10_BN - 1) / T10_BN), k = (K + T10_BK - 1) / T10_BK;
  double ctas = T * k < P ? T * k : P, parts = ceil(ctas / T);
  *stream_k = 1.05 * T * k / ctas + 2 * parts;
  *whole = ceil(T / P) * k;
  double s = floor(P / T);
  if (s > floor(k / S18_SPLIT_MIN_K)) s = floor(k / S18_SPLIT_MIN_K);
  if (s > S18_MAX_PARTS) s = S18_MAX_PARTS;
  *split = s >= 2 ? 1.05 * ceil(k / s) + S18_SPLIT_FIXUP : HUGE_VAL;
  return s >= 2 ? (int)s : 1;
}
/* the launcher's choice: whole tiles where their estimate is the lowest (ties included), else
 * split-K where its estimate is below Stream-K's, else Stream-K; *parts: split-K's parts a tile */
int gemm_18_choice(int M, int N, int K, int P, int *parts)
{
  double stream_k, whole, split;
  *parts = gemm_18_estimates(M, N, K, P, &stream_k, &whole, &split);
  return whole <= stream_k && whole <= split ? GEMM18_WHOLE : split < stream_k ? GEMM18_SPLIT : GEMM18_STREAM_K;
}
// ANCHOR_END: estimates

/* one slot and one flag per resident CTA, for both fix-ups; the launch's epoch */
static void s18_workspace(float **work, int **flags, int *epoch)
{
  static int e;
  static float *w;
  static int *f;
  int slots = s18_slots();
  if (!w) {
    LK_CHECK(cudaMalloc(&w, (size_t)slots * S18_SLOT * sizeof(float)));   // 128 KiB a CTA
    LK_CHECK(cudaMalloc(&f, (size_t)slots * sizeof(int)));
    LK_CHECK(cudaMemset(f, 0, (size_t)slots * sizeof(int)));
  }
  e = e == 0x7fffffff ? 1 : e + 1;                       // flags of earlier launches never match
  if (e == 1) LK_CHECK(cudaMemset(f, 0, (size_t)slots * sizeof(int)));
  *work = w, *flags = f, *epoch = e;
}

// ANCHOR: launch
void gemm_18_fp32_stream_k(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
                           float beta, float *C, int ldc)
{
  int slots = s18_slots(), s, choice = gemm_18_choice(M, N, K, slots, &s);
  if (choice == GEMM18_WHOLE) {                          // the last wave is nearly full: step 31
    gemm_31_fp32_cp_async(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  float *work;
  int *flags, epoch;
  s18_workspace(&work, &flags, &epoch);
  int tiles_m = (M + T10_BM - 1) / T10_BM, tiles_n = (N + T10_BN - 1) / T10_BN, tiles = tiles_m * tiles_n;
  int a16 = gemm_aligned16(A, lda, 4), c_vec = gemm_aligned16(C, ldc, 4);
  cudaLaunchConfig_t cfg;                                // with PDL on an sm_90 GPU (hopper.h)
  cudaLaunchAttribute attr[2];
  if (choice == GEMM18_SPLIT) {                          // few tiles: each in s parts, the shared fix-up
    gh_launch_config(&cfg, attr, dim3((unsigned)(tiles * s)), T10_THREADS, T31_SMEM, 1);
    void (*kern)(int, int, int, int, int, float, const float *, int, const float *, int, float, float *, int, int,
                 float *, int *, int) =                  // s <= 8: a case for each (s, p)
      s <= S18_FEW_MAX_PARTS ? (a16 ? k18_split_few : k18_split_few_a4) : (a16 ? k18_split : k18_split_a4);
    LK_CHECK(cudaLaunchKernelEx(&cfg, kern, s, tiles_m, M, N, K, alpha, A, lda, B, ldb, beta,
                                C, ldc, c_vec, work, flags, epoch));
    LK_LAUNCH();
    return;
  }
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
  gh_launch_config(&cfg, attr, dim3((unsigned)ctas), T10_THREADS, T31_SMEM, 1);
  LK_CHECK(cudaLaunchKernelEx(&cfg, a16 ? k18_fp32_stream_k : k18_fp32_stream_k_a4, sk, M, N, K, alpha, A, lda, B, ldb,
                              beta, C, ldc, c_vec, work, flags, epoch));
  LK_LAUNCH();
}
// ANCHOR_END: launch
