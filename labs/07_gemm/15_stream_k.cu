/* Step 15 -- Stream-K: persistent CTAs share out the k loops as well as the tiles.
 *
 * What changes from step 13: the work is counted in k tiles, not whole output tiles
 * (lib/tile_scheduler.h, lts_sk_*).  The first waves of tiles are data-parallel, as in step 13; the
 * k iterations of the remaining tiles (the last, partial wave, or the last two waves where the last
 * is under half full; all tiles when there are fewer than SMs) are cut into one contiguous range
 * per CTA, so every SM does the same number of k tiles.  Each CTA walks its range's whole tiles
 * first, then the part of its last tile, then its first tile.  A tile whose k loop is split between
 * CTAs is finished by its owner, the CTA that holds its last k tile (its last unit): the CTAs
 * before it leave their partial sums in a workspace (one slot per CTA; a CTA has one such part at
 * most, after whole tiles alone) and raise a flag; the owner waits for each flag in descending k,
 * adds the partial sums to its own, and writes C.  The sums are taken in the same order every run:
 * the result does not depend on timing.
 *
 * Flags hold the launch's epoch (a counter the launcher increments), so nothing is cleared between
 * launches.  An owner waits only for earlier CTAs' parts, which wait for nothing and follow only
 * whole tiles, and all CTAs are resident (one per SM): the waits cannot deadlock.  A wait that
 * lasts 10 s traps.
 *
 * Measured (H100 80GB HBM3, ratio to cuBLAS in the same run; step 13 in brackets).
 *   First version: ranges walked first tile first, the owner the CTA with k tile 0.  4096^3 0.87
 *   (0.93), 8192x8192x1024 0.85 (0.87), 12288^3 0.93 (0.98), 1536x1536x16384 0.76 (0.74).  ncu at
 *   4096^3: DRAM throughput 51% of peak against 31%, L2 hit rate 65% against 70%.  CTA c started
 *   at k tile (c I / P) mod k_iters, so the CTAs were spread over the whole k loop and the CTAs
 *   that share a panel of A or B read its k slices at different times: at 1536x1536x16384 the
 *   100 MB of A and B do not fit in L2, and each slice came from DRAM again and again.  Starting
 *   every range on a common k grid (k_iters/q, q = 2, 4, 8) changed nothing.
 *   In step: walked last tile first, every range starts at k tile 0 of a tile (or inside the one
 *   tile it lies in), so at any moment the CTAs work in a few cohorts on nearly the same k slices.
 *   Same GPU, runs of cuBLAS, step 13 and this step in the old alternating order: 1536x1536x16384
 *   0.90-0.91 (0.62), 12288x1536x8192 0.93-0.95 (0.85-0.87), 3072x3072x4096 0.84-0.88 (0.72-0.77),
 *   4096^3 0.89-0.91 (0.92-0.96), 8192^3 0.97 (0.97-0.99), 8192x8192x1024 0.85 (0.87-0.88).  In
 *   the balanced order (labkit.h), two runs: 1536x1536x16384 0.95-0.97 (0.66-0.67), 3072x3072x4096
 *   0.85-0.86 (0.72), 4096^3 0.88-0.91 (0.93-0.94), 8192^3 0.97-0.99 (0.96-1.00).
 *   The extra wave: at 5120x5120x4096 (800 tiles: 6 waves and 8 tiles) the 8 tiles' k loops alone
 *   were cut among 16 or 17 CTAs each, and each owner added 16 partial sums one after another:
 *   most SMs were done at about 290 us, the owners at 320 us, against 323 us for whole tiles
 *   (07_gemm --timeline).  Sharing out the wave before as well: done at 298 us, 0.94 (0.83).
 *   Whole tiles first (H200, five runs of each walk in turns, against cuBLAS in the process):
 *   with the wave before shared out, a range holds one to two tiles and may cover three, the end
 *   of one, a whole tile and the start of a third.  Walked last tile first, the whole tile started
 *   h k tiles into the range (h, the third tile's part, different on every CTA): at
 *   2432x2432x29824 (190 tiles of 466 k tiles on 132 CTAs) 56 whole tiles started at 28 times, 7
 *   to 197 k tiles in.  Walked whole tiles first, all start at once: 0.82-0.84 -> 1.02-1.03 there;
 *   the medians at 2048x2560x16384 (0.94 -> 0.95), 5120x5120x4096 and 1920x2816x20480 within 1.5 %.
 *   Where Stream-K pays over whole tiles is decided by the best path (step 17's launcher, by
 *   gh_best_path in hopper.cu).
 * The best path runs this kernel with step 17's TMA-store epilogue (gh_stream_k(..., 1), where
 *   gh_tma_c allows): staging buffers after the four stages, 226 KiB in all (without them where
 *   the direct epilogue runs); owners and whole tiles
 *   stage C, partial sums go straight to their slots.  Per SM at 5120x5120x4096 (H200, --timeline,
 *   this step) 241 us of MMAs against 32 us of epilogues.  The best path with and without it,
 *   three runs each in turns, TFLOP/s: H100 5120x5120x4096 637 -> 666, 3072x3072x4096 575 -> 594,
 *   2560x2560x4096 552 -> 572, 3072x3072x2048 476 -> 515; H200 604 -> 626, 561 -> 583, 552 -> 569,
 *   477 -> 511.  Step 15 itself (version 15) keeps step 13's epilogue, as measured above.
 * Where the next launch is released (PDL, hopper.h).  Most kernels of the best path release it
 *   as soon as they start; this one releases it when its consumers are done, and its producer
 *   never does.  Released at the start, back-to-back calls of this kernel took 5-42 % longer
 *   than with plain launches at some shapes, by different amounts from run to run (H200,
 *   07_gemm --launch-cost, the GPU alone, us a call, PDL against plain): 1344x1344x8192 59-77
 *   against 54.5, 1344x1344x8000 67 against 53, 1408x1408x8192 64-68 against 55, 2744x425x10368
 *   57-59 against 51, 1280x1344x8192 56-62 against 54, every one an exact split
 *   (gh_stream_k_ctas); elsewhere 1-4 % faster than plain.  Released at the end, in a process
 *   run just after: 52.4, 51.0, 52.9, 48.6 and 51.5, 2-5 % under plain there, and level with the
 *   early release or faster at the six other shapes timed (1024x2048x8192 53.4 against 54.2,
 *   1536x1024x8192 48.2 against 48.8, 4096^3 197.6 against 199.6).  Released by the producer
 *   after its last load: in between (55.6, 57.4, 58.7, 53.4, 54.2).  Why the early release costs
 *   at these shapes, and only at some exact splits, was not found.  Steps 19 and 22, whose CTAs
 *   also wait on each other's flags, release at their end too (their files give the numbers);
 *   the kernels without a fix-up keep the early release: with it, the best path with PDL was
 *   within 2 % of plain launches or faster at the 63 shapes timed (chapter 7).
 */
#include "hopper.h"
#include "tile_scheduler.h"
#include "labkit.h"

#define S15_STAGES 4
#define S15_SLOT (2 * 128 * 128)              /* floats of one CTA's partial sums: 2 warpgroups x 128 threads x 128 */
/* the stages, step 17's staging buffers for the TMA-store epilogue (used where the launcher asks), the barriers */
#define S15_SMEM GH_SMEM_STAGED(S15_STAGES)

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
/* The 256 consumer threads only (named barrier 1; the producer warpgroup is not in it). */
__device__ static inline void s15_consumers_sync(void) { asm volatile("bar.sync 1, 256;\n" ::: "memory"); }
/* a consumer warp is done with a stage: it tells its producer, and in a cluster the peer's too */
__device__ static inline void s15_release(uint64_t *empty, int cluster, uint32_t rank)
{
  if (cluster) gh_release_pair(empty, rank);
  else if (threadIdx.x % 32 == 0) gh_bar_arrive(empty);
}

#endif

// ANCHOR: kernel
__global__ void __launch_bounds__(384, 1)
k15_stream_k(const __grid_constant__ CUtensorMap tA, const __grid_constant__ CUtensorMap tB,
             const __grid_constant__ CUtensorMap tC, int tma_c, int cluster, lts_sk_params sk, int M, int N,
             float alpha, float beta, float *C, int ldc, float *work, int *flags, int epoch, gh_timeline tl)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ uint8_t raw[];
  uint8_t *staging;
  gh_smem_plan p = gh_plan_staged(raw, S15_STAGES, &staging);
  int tid = threadIdx.x, wg = tid / 128, cta = blockIdx.x;
  // ANCHOR: clusters
  /* step 27 (cluster 1): the schedule's tiles are pairs of tiles along m, its CTAs the clusters of 2;
   * CTA `rank` of cluster q walks q's units, on tile `rank` of each pair, and loads half of B for both */
  uint32_t rank = cluster ? gh_cluster_rank() : 0;
  int q = cluster ? cta / 2 : cta, step = cluster ? 2 : 1;   // the schedule's CTA; a peer's slot is `step` apart
  if (tid == 0) {
    gh_tma_prefetch_map(&tA);
    gh_tma_prefetch_map(&tB);
    if (tma_c) gh_tma_prefetch_map(&tC);
    for (int s = 0; s < S15_STAGES; ++s) { gh_bar_init(&p.full[s], 1); gh_bar_init(&p.empty[s], 8 * step); }
    gh_fence_bar_init();
  }
  if (cluster) gh_cluster_sync();
  else __syncthreads();
  // ANCHOR_END: clusters
  gh_grid_wait();                                        // PDL: the launch ahead has ended, its writes visible
  int it = 0;                                            // k tiles through the ring so far
  if (wg == 0) {                                         // the producer: every unit's k tiles
    GH_SETMAXNREG_DEC(40);
    if (tid == 0)
      for (int i = 0;; ++i) {
        lts_sk_unit u = lts_sk_unit_at(&sk, q, i);
        if (!u.valid) break;
        for (int kt = u.k_begin; kt < u.k_end; ++kt, ++it) {
          int s = it % S15_STAGES;
          if (it >= S15_STAGES) gh_bar_wait(&p.empty[s], (it / S15_STAGES - 1) & 1);
          if (cluster) gh_load_ktile_shared(&p, s, &tA, &tB, 2 * u.m + (int)rank, u.n, kt, rank, 0);   // as step 14
          else gh_load_ktile(&p, s, &tA, &tB, u.m, u.n, kt);
        }
      }
  } else {                                               // the consumers
    GH_SETMAXNREG_INC(232);
    int c = wg - 1, t = tid - 128;                       // t: 0..255 among the consumers
    float acc[128];
    for (int i = 0;; ++i) {
      lts_sk_unit u = lts_sk_unit_at(&sk, q, i);
      if (!u.valid) break;
      if (cluster) u.m = 2 * u.m + (int)rank;           // this CTA's tile of the pair
      unsigned long long t0 = gh_now(&tl);               // the timeline's marks (off when timed)
      gh_zero_acc(acc);
      gh_fence_acc(acc);
      for (int kt = u.k_begin; kt < u.k_end; ++kt, ++it) {
        int s = it % S15_STAGES;
        gh_bar_wait(&p.full[s], (it / S15_STAGES) & 1);
        gh_mma_ktile(acc, p.a + s * GH_STAGE_A, p.b + s * GH_STAGE_B, c);
        GH_WGMMA_WAIT(1);
        if (kt > u.k_begin) s15_release(&p.empty[(it - 1) % S15_STAGES], cluster, rank);
      }
      GH_WGMMA_WAIT(0);
      gh_fence_acc(acc);
      s15_release(&p.empty[(it - 1) % S15_STAGES], cluster, rank);   // the unit's last stage
      unsigned long long t1 = gh_now(&tl);
      // ANCHOR: fixup
      if (u.k_end < sk.k_iters) {                        // partial sums: to slot `cta`, then the flag
        float *slot = work + (size_t)cta * S15_SLOT + t;
#pragma unroll
        for (int j = 0; j < 128; ++j) slot[j * 256] = acc[j];   // thread-fastest: coalesced
        s15_consumers_sync();                            // all 256 threads' sums are written ...
        if (t == 0) gemm_flag_store(&flags[cta], epoch);  // ... then published (a release at GPU scope)
        gh_mark_unit(&tl, c, u.m, u.n, u.k_begin, u.k_end, 2, t0, t1, t1);
        continue;
      }
      for (int peer = 1; peer <= u.peers; ++peer) {      // the owner: add the peers' sums, k descending
        int from = cta - step * peer;                    // the same tile of the pair, `peer` clusters back
        if (t == 0) gemm_flag_wait(&flags[from], epoch); // traps after ~10 s: a lost partial sum
        s15_consumers_sync();
        const float *slot = work + (size_t)from * S15_SLOT + t;
#pragma unroll
        for (int j = 0; j < 128; ++j) acc[j] += __ldcg(slot + j * 256);
      }
      // ANCHOR_END: fixup
      unsigned long long t2 = gh_now(&tl);
      if (tma_c) gh_epilogue_tma(acc, staging + c * 16384, &tC, c, u.m * GH_BM + 64 * c, u.n * GH_BN, alpha);
      else gh_epilogue(acc, u.m * GH_BM + 64 * c, u.n * GH_BN, M, N, alpha, beta, C, ldc);
      gh_mark_unit(&tl, c, u.m, u.n, u.k_begin, u.k_end, u.peers ? 1 : 0, t0, t1, t2);
    }
    if (tma_c && tid % 128 == 0) gh_store_wait_all();   // C is written before the CTA ends
    gh_grid_release();                                   // PDL: only now may the next launch start (see above)
  }
  if (cluster) gh_cluster_sync();                        // no CTA leaves while its peer may still signal it
#endif
}
// ANCHOR_END: kernel

// ANCHOR: launch
void gh_stream_k(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                 float *C, int ldc, int tma_epilogue, int cluster)
{
  gh_operands op;
  if (!gh_prepare(M, N, K, A, lda, B, ldb, &op)) {
    gh_fallback(&op, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  static int ready, clusters;                            // clusters of 2 resident at once
  static gh_sk_workspace ws;
  cudaLaunchConfig_t cfg;
  cudaLaunchAttribute attr[2];
  if (!ready) {
    LK_CHECK(cudaFuncSetAttribute(k15_stream_k, cudaFuncAttributeMaxDynamicSharedMemorySize, S15_SMEM));
    gh_launch_config(&cfg, attr, dim3(2), 384, S15_SMEM, 2);
    LK_CHECK(cudaOccupancyMaxActiveClusters(&clusters, k15_stream_k, &cfg));
    ready = 1;
  }
  if (cluster && clusters < 1) {
    fprintf(stderr, "gemm_27_stream_k_clusters: no cluster of 2 fits on this GPU\n");
    exit(1);
  }
  // ANCHOR: pairs
  lts_sk_params sk = cluster ? gh_stream_k_schedule(M, N, K, 2 * GH_BM, GH_BN, clusters, "gemm_27_stream_k_clusters")
                             : gh_stream_k_schedule(M, N, K, GH_BM, GH_BN, gh_sm_count(), "gh_stream_k");
  // ANCHOR_END: pairs
  int epoch = gh_stream_k_epoch(&ws, S15_SLOT);          // 128 KiB a CTA
  CUtensorMap tC = { { 0 } };
  int tma_c = tma_epilogue && gh_tma_c(&tC, M, N, K, beta, C, ldc);
  gh_launch_config(&cfg, attr, dim3(sk.ctas * (cluster ? 2 : 1)), 384, tma_c ? S15_SMEM : S15_SMEM - GH_STAGING,
                   cluster ? 2 : 1);                     // no staging: more L1
  LK_CHECK(cudaLaunchKernelEx(&cfg, k15_stream_k, op.a, op.b, tC, tma_c, cluster, sk, M, N, alpha, beta, C, ldc,
                              ws.work, ws.flags, epoch, gh_tl));
  LK_CHECK(cudaGetLastError());
}

void gemm_15_stream_k(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                      float *C, int ldc)
{
  gh_stream_k(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, 0, 0);   // step 15 itself: the direct epilogue
}
// ANCHOR_END: launch
