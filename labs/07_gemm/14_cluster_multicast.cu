/* Step 14 -- clusters of 2 CTAs that share B: each loads half of the B tile and multicasts it to both.
 *
 * What changes from step 13: the persistent CTAs come in clusters of (2,1): the two CTAs of a
 * cluster compute vertically adjacent tiles (2c, n) and (2c+1, n) -- the scheduler counts work in
 * clusters, as CuTe's does -- so they need the same (64,256) B slice at every k tile.  CTA r loads
 * only B's box r (64 k, 128 n) and the TMA multicast writes it into the same place of both CTAs'
 * shared memory, completing on both CTAs' `full` barriers: B's traffic from L2 halves.
 * The price is coupling: a stage may be refilled only when the consumers of *both* CTAs are done
 * with it (the peer writes into my stage), so every consumer warp arrives on the `empty` barrier
 * of both CTAs: its own with step 13's local arrive, the peer's through mapa and a remote arrive
 * (16 arrivals per phase).  The cluster's CTAs start after a cluster barrier (the peer's barriers
 * are initialised) and end with one (no arrival may reach a CTA that has left).  When the tile
 * count along m is odd, the second CTA of the last cluster row works on a tile past M: it still
 * loads and multicasts its half of B, reads zeros for A, and its epilogue writes nothing.
 *
 * The remote arrive is *relaxed* at cluster scope, and that matters.  It publishes no data: it only
 * says "my wgmma has finished reading this stage" (wgmma.wait_group has already waited for that),
 * so the peer may overwrite it.  Written with release semantics at cluster scope
 * (mbarrier.arrive.release.cluster), each arrive compiles to MEMBAR.ALL.CTA; MEMBAR.ALL.GPU;
 * ERRBAR; CGAERRBAR before the SYNCS.ARRIVE: a GPU-wide memory fence that waits for the warp's
 * outstanding stores (the previous tile's epilogue too), twice per warp and k tile, in the
 * consumers' critical path.  That version ran at 401 and 422 TFLOP/s at 4096^3 and 8192^3 (H200),
 * against 626 and 658 for step 13; with the relaxed remote arrive, 620 and 659.  The local arrive
 * (release at CTA scope, as in step 13) needs no fence.
 * Measured beside it, all in one run: the fenced arrives without multicast (each CTA loads its
 * whole B): 396 and 405, so the fence was the whole loss; one fenced remote arrive per consumer
 * warpgroup instead of two per warp: 492 and 480; every variant without the fence within 1% of
 * the others and of step 13 -- both arrives through mapa, relaxed or at CTA scope (620 and 657;
 * 620 and 657), one arrive per consumer warpgroup and CTA from lanes 0 and 1 of its first warp
 * (4 arrivals per phase, as CUTLASS spreads them: 623 and 655), coupled CTAs without multicast
 * (621 and 649), step 13 launched in clusters with no coupling (617 and 649), and, in a later
 * run, issuing the multicast before A's loads (no change either).  So the coupling costs nothing
 * measurable and the multicast buys about 1% at 8192^3 over the same kernel without it: step 13
 * is not limited by L2 bandwidth at these sizes, and step 14 only matches it.  What still
 * separates both from cuBLAS is the epilogue, which the tensor cores wait for.
 * Later, with step 17's TMA-store epilogue (tma_c, gh_clusters(..., 1)), the same clusters ran
 * 6-9% faster than with their own epilogue and ahead of Stream-K at 8192^3 on an H100; the best
 * path runs them so where K >= 8192 (4096 in place of (192,192) tiles) in many full waves (hopper.cu,
 * clusters_pay), in place of step 12's tiles below three waves, and where B's
 * columns lie off 128-byte lines (off_lines: 0.94-0.99 of cuBLAS against 0.68-0.78, and in place of
 * (192,192) tiles 0.88-1.13 against 0.62-0.85).  Turned along n, sharing A, they are step 23
 * (share_a; 23_clusters_share_a.cu).  Step 14's own
 * launcher keeps the direct epilogue and no PDL, as measured below.
 * Measured (H200, the run recorded on 2026-11-22, versions timed one after another):
 *   0.910 of cuBLAS at 4096^3, 0.960 at
 *   8192^3; 2.97x at 4095^3, 2.81x at 4097^3 (step 13: 2.31x).
 */
#include "hopper.h"
#include "tile_scheduler.h"
#include "labkit.h"

#define S14_STAGES 4
#define S14_SMEM GH_SMEM_STAGED(S14_STAGES)   /* with step 17's staging buffers (the best path) */

// ANCHOR: kernel
__global__ void __launch_bounds__(384, 1)
k14_cluster_multicast(const __grid_constant__ CUtensorMap tA, const __grid_constant__ CUtensorMap tB,
                      const __grid_constant__ CUtensorMap tC, int tma_c, int share_a, lts_params sched, int M, int N,
                      int K, float alpha, float beta, float *C, int ldc)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ uint8_t raw[];
  uint8_t *staging;                                      // step 17's buffers, where tma_c
  gh_smem_plan p = gh_plan_staged(raw, S14_STAGES, &staging);
  int tid = threadIdx.x, wg = tid / 128;
  uint32_t rank = gh_cluster_rank();                     // 0 or 1: blockIdx.x % 2 (blockIdx.y % 2 sharing A)
  int rank_m = share_a ? 0 : (int)rank, rank_n = share_a ? (int)rank : 0;   // the cluster's first tile: w - rank
  int ktiles = (K + GH_BK - 1) / GH_BK;
  if (tid == 0) {
    gh_tma_prefetch_map(&tA);
    gh_tma_prefetch_map(&tB);
    if (tma_c) gh_tma_prefetch_map(&tC);
    for (int s = 0; s < S14_STAGES; ++s) { gh_bar_init(&p.full[s], 1); gh_bar_init(&p.empty[s], 16); }
    gh_fence_bar_init();
  }
  gh_cluster_sync();
  gh_grid_wait();                                        // PDL (the best path's launches): the launch
  gh_grid_release();                                     // ahead has ended; the next may start its prologue
  int it = 0;
  if (wg == 0) {                                         // the producer
    GH_SETMAXNREG_DEC(40);
    if (tid == 0)
      for (int i = 0;; ++i) {
        lts_work w = lts_work_at(&sched, gridDim.z, blockIdx.x, blockIdx.y, blockIdx.z, i);
        if (!w.valid) break;
        if (w.m - rank_m >= sched.tiles_m || w.n - rank_n >= sched.tiles_n) continue;   // the whole cluster skips
        for (int kt = 0; kt < ktiles; ++kt, ++it) {
          int s = it % S14_STAGES;
          if (it >= S14_STAGES) gh_bar_wait(&p.empty[s], (it / S14_STAGES - 1) & 1);
          gh_load_ktile_shared(&p, s, &tA, &tB, w.m, w.n, kt, rank, share_a);   // hopper.h
        }
      }
  } else {                                               // the consumers
    GH_SETMAXNREG_INC(232);
    int c = wg - 1;
    float acc[128];
    for (int i = 0;; ++i) {
      lts_work w = lts_work_at(&sched, gridDim.z, blockIdx.x, blockIdx.y, blockIdx.z, i);
      if (!w.valid) break;
      if (w.m - rank_m >= sched.tiles_m || w.n - rank_n >= sched.tiles_n) continue;
      gh_zero_acc(acc);
      gh_fence_acc(acc);
      for (int kt = 0; kt < ktiles; ++kt, ++it) {
        int s = it % S14_STAGES;
        gh_bar_wait(&p.full[s], (it / S14_STAGES) & 1);
        gh_mma_ktile(acc, p.a + s * GH_STAGE_A, p.b + s * GH_STAGE_B, c);
        GH_WGMMA_WAIT(1);
        if (kt > 0) gh_release_pair(&p.empty[(it - 1) % S14_STAGES], rank);   // in both CTAs (hopper.h)
      }
      GH_WGMMA_WAIT(0);
      gh_fence_acc(acc);
      gh_release_pair(&p.empty[(it - 1) % S14_STAGES], rank);
      if (tma_c) gh_epilogue_tma(acc, staging + c * 16384, &tC, c, w.m * GH_BM + 64 * c, w.n * GH_BN, alpha);
      else gh_epilogue(acc, w.m * GH_BM + 64 * c, w.n * GH_BN, M, N, alpha, beta, C, ldc);
    }
    if (tma_c && tid % 128 == 0) gh_store_wait_all();  // C is written before the CTA ends
  }
  gh_cluster_sync();
#endif
}
// ANCHOR_END: kernel

/* Step 14's clusters with the direct epilogue (tma_epilogue 0, step 14 itself) or with step 17's
 * TMA-store epilogue (the best path, at any K); along m sharing B (share_a 0) or along n sharing A
 * (share_a 1, step 23); returns 0, launching nothing, where that epilogue is asked for and C may not
 * be written by TMA (gh_tma_c_may) */
int gh_clusters(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C,
                int ldc, int tma_epilogue, int share_a)
{
  CUtensorMap tC;
  memset(&tC, 0, sizeof tC);                             // unused by the direct epilogue
  int tma_c = tma_epilogue && gh_tma_c_may(&tC, M, N, beta, C, ldc);
  if (tma_epilogue && !tma_c) return 0;
  gh_operands op;
  if (!gh_prepare(M, N, K, A, lda, B, ldb, &op)) {
    gh_fallback(&op, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return 1;
  }
  static int active;                                     // clusters of 2 resident at once
  cudaLaunchConfig_t cfg;
  cudaLaunchAttribute attr[2];
  size_t smem = tma_c ? S14_SMEM : S14_SMEM - GH_STAGING;   // one CTA an SM either way
  if (!active) {
    LK_CHECK(cudaFuncSetAttribute(k14_cluster_multicast, cudaFuncAttributeMaxDynamicSharedMemorySize, S14_SMEM));
    gh_launch_config(&cfg, attr, dim3(2, 1, 1), 384, S14_SMEM, 2);
    LK_CHECK(cudaOccupancyMaxActiveClusters(&active, k14_cluster_multicast, &cfg));
    if (active < 1) { fprintf(stderr, "gemm_14_cluster_multicast: no cluster of 2 fits on this GPU\n"); exit(1); }
    gh_clusters_resident = active;
  }
  lts_params sched;
  const char *err;
  int tiles_m = (M + GH_BM - 1) / GH_BM, tiles_n = (N + GH_BN - 1) / GH_BN;
  int cm = share_a ? 1 : 2, cn = share_a ? 2 : 1;       // the cluster's shape in tiles
  int raster_m = gh_persistent_raster_m(M, N);          // hopper.cu: along n where C is tall
  int swizzled = raster_m ? (tiles_n + cn - 1) / cn : (tiles_m + cm - 1) / cm;   // clusters along the swizzle
  int swz = gh_schedule_swizzle(swizzled);               // no empty work
  if (!lts_init(&sched, tiles_m, tiles_n, 1, cm, cn, swz, raster_m, &err)) {
    fprintf(stderr, "gemm_14_cluster_multicast: %s\n", err);
    exit(1);
  }
  int gx, gy, gz;
  lts_grid(&sched, active, &gx, &gy, &gz);               // (2, 1, P) or (1, 2, P): P clusters of 2
  gh_launch_config(&cfg, attr, dim3(gx, gy, gz), 384, smem, 2);
  for (unsigned i = 0; i < cfg.numAttrs; ++i)            // the cluster along the grid's y sharing A
    if (attr[i].id == cudaLaunchAttributeClusterDimension) attr[i].val.clusterDim.x = gx, attr[i].val.clusterDim.y = gy;
  if (!tma_epilogue && !share_a && cfg.numAttrs == 2) { // step 14 itself: no PDL, the cluster alone
    attr[0] = attr[1];
    cfg.numAttrs = 1;
  }
  LK_CHECK(cudaLaunchKernelEx(&cfg, k14_cluster_multicast, op.a, op.b, tC, tma_c, share_a, sched, M, N, K, alpha,
                              beta, C, ldc));
  LK_CHECK(cudaGetLastError());
  return 1;
}

void gemm_14_cluster_multicast(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb,
                               float beta, float *C, int ldc)
{
  if (!gh_persistent_pays(M, N)) {                       // as step 13: few tiles per SM, step 12
    gemm_12_warp_specialized(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  gh_clusters(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, 0, 0);
}
