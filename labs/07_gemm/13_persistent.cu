/* Step 13 -- persistent CTAs walking the tile schedule of chapter 6 (lib/tile_scheduler.h).
 *
 * What changes from step 12: one CTA per SM, each walking tiles in the order of the static
 * persistent tile scheduler (raster and swizzle: gh_raster_m, gh_swizzle, chosen by measurement
 * with the runner's --schedules).  The producer's k-tile counter runs on across tiles, so while the
 * consumers write one tile's C, the producer already fills the ring with the next tile's A and B:
 * the epilogue overlaps the next tile's loads, and no CTA pays its launch and prologue again.
 * The consumers release a tile's last stage after wgmma.wait_group 0 (step 12 never needed to).
 * Tiles that the swizzle's rounding adds past the edge of C are skipped by every warpgroup alike.
 * Measured (H200, the run recorded on 2026-11-22, versions timed one after another):
 *   0.867 of cuBLAS at 4096^3, 0.963 at
 *   8192^3; 2.81x at 4095^3, 2.31x at 4097^3.  Problems of fewer than 3 tiles per SM go to
 *   step 12 (at 2924 x 1456 x 282, 138 tiles: 0.94 of step 9 persistent, 1.08 as step 12).
 */
#include "hopper.h"
#include "tile_scheduler.h"
#include "labkit.h"

#define S13_STAGES 4

// ANCHOR: kernel
__global__ void __launch_bounds__(384, 1)
k13_persistent(const __grid_constant__ CUtensorMap tA, const __grid_constant__ CUtensorMap tB, lts_params sched,
               int M, int N, int K, float alpha, float beta, float *C, int ldc, gh_timeline tl)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ uint8_t raw[];
  gh_smem_plan p = gh_plan(raw, S13_STAGES);
  int tid = threadIdx.x, wg = tid / 128;
  int ktiles = (K + GH_BK - 1) / GH_BK;
  if (tid == 0) {
    gh_tma_prefetch_map(&tA);
    gh_tma_prefetch_map(&tB);
    for (int s = 0; s < S13_STAGES; ++s) { gh_bar_init(&p.full[s], 1); gh_bar_init(&p.empty[s], 8); }
    gh_fence_bar_init();
  }
  __syncthreads();
  int it = 0;                                            // k tiles through the ring so far
  if (wg == 0) {                                         // the producer
    GH_SETMAXNREG_DEC(40);
    if (tid == 0)
      for (int i = 0;; ++i) {
        lts_work w = lts_work_at(&sched, gridDim.z, blockIdx.x, blockIdx.y, blockIdx.z, i);
        if (!w.valid) break;
        if (w.m >= sched.tiles_m || w.n >= sched.tiles_n) continue;
        for (int kt = 0; kt < ktiles; ++kt, ++it) {
          int s = it % S13_STAGES;
          if (it >= S13_STAGES) gh_bar_wait(&p.empty[s], (it / S13_STAGES - 1) & 1);
          gh_load_ktile(&p, s, &tA, &tB, w.m, w.n, kt);
        }
      }
  } else {                                               // the consumers
    GH_SETMAXNREG_INC(232);
    int c = wg - 1;
    float acc[128];
    for (int i = 0;; ++i) {
      lts_work w = lts_work_at(&sched, gridDim.z, blockIdx.x, blockIdx.y, blockIdx.z, i);
      if (!w.valid) break;
      if (w.m >= sched.tiles_m || w.n >= sched.tiles_n) continue;
      unsigned long long t0 = gh_now(&tl);               // the timeline's marks (off when timed)
      gh_zero_acc(acc);
      gh_fence_acc(acc);
      for (int kt = 0; kt < ktiles; ++kt, ++it) {
        int s = it % S13_STAGES;
        gh_bar_wait(&p.full[s], (it / S13_STAGES) & 1);
        gh_mma_ktile(acc, p.a + s * GH_STAGE_A, p.b + s * GH_STAGE_B, c);
        GH_WGMMA_WAIT(1);
        if (kt > 0 && tid % 32 == 0) gh_bar_arrive(&p.empty[(it - 1) % S13_STAGES]);
      }
      GH_WGMMA_WAIT(0);
      gh_fence_acc(acc);
      if (tid % 32 == 0) gh_bar_arrive(&p.empty[(it - 1) % S13_STAGES]);   // the tile's last stage
      unsigned long long t1 = gh_now(&tl);
      gh_epilogue(acc, w.m * GH_BM + 64 * c, w.n * GH_BN, M, N, alpha, beta, C, ldc);
      gh_mark_unit(&tl, c, w.m, w.n, 0, ktiles, 0, t0, t1, t1);
    }
  }
#endif
}
// ANCHOR_END: kernel

void gemm_13_persistent(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                        float *C, int ldc)
{
  // ANCHOR: few_tiles
  /* fewer than 3 tiles per SM: a persistent CTA would walk one or two tiles, and nothing is
   * amortised; measured slower than one CTA per tile (step 12) there, so take step 12 */
  if (!gh_persistent_pays(M, N)) {
    gemm_12_warp_specialized(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  // ANCHOR_END: few_tiles
  gh_operands op;
  if (!gh_prepare(M, N, K, A, lda, B, ldb, &op)) {
    gh_fallback(&op, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  static int ready;
  if (!ready) {
    LK_CHECK(cudaFuncSetAttribute(k13_persistent, cudaFuncAttributeMaxDynamicSharedMemorySize, GH_SMEM(S13_STAGES)));
    ready = 1;
  }
  dim3 grid;
  lts_params sched = gh_persistent_schedule(M, N, GH_BM, GH_BN, "gemm_13_persistent", &grid);   // hopper.cu
  k13_persistent<<<grid, 384, GH_SMEM(S13_STAGES)>>>(op.a, op.b, sched, M, N, K, alpha, beta, C, ldc, gh_tl);
  LK_CHECK(cudaGetLastError());
}
