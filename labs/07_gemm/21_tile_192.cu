/* Step 21 -- (192,192) tiles: three consumer warpgroups, for shapes that (128,256) tiles fit badly.
 *
 * What changes from step 17: the CTA tile is (192,192) instead of (128,256).  Three consumer
 * warpgroups each compute a (64,192) part of it with one m64n192k16 chain (96 accumulators per
 * thread), beside one producer warpgroup: 512 threads.  A k tile brings the same 48 KiB (A's three
 * (64 m, 64 k) boxes and one (64 k, 192 n) box of B) for 1.125 times the MMAs of a (128,256) k
 * tile.  What it is for is the count of tiles: 3072 x 3072 has 288 tiles of (128,256) -- 2.18
 * waves of 132 SMs, the third nearly empty, which the best path gave to Stream-K -- and 256 of
 * (192,192), 1.94 waves.  The registers: 65536 per SM over 512 threads is 128 each; the producer
 * gives back down to 40 and the consumers take 152 (setmaxnreg; 40 x 128 + 152 x 384 fits).
 * Shared memory: 4 stages of 48 KiB and, for the TMA-store epilogue, one 8 KiB staging buffer per
 * consumer (two, as step 17 has, do not fit beside 4 stages): 218 KiB.  Everything else is step
 * 17's: the static persistent schedule, the stages' full and empty barriers (12 consumer warps
 * release a stage), C by TMA stores where gh_tma_c allows, else from the registers.
 *
 * Measured (H100 80GB HBM3; ratio to cuBLAS in the same run; in brackets the best path before this
 *   step, from a run of the same session).  3 stages and two staging buffers per consumer (cuBLAS's
 *   kernel at these shapes has 3 stages): 0.88 at 3072x3072x4096 (0.88).  4 stages, C from the
 *   registers: 0.96 (0.88); 12288^3 1.01 (0.95).  4 stages and one staging buffer, as here:
 *   3072x3072x2048 0.98 (0.84), 3072x3072x4096 0.96 (0.88), 3072x3072x8192 0.95 (0.87),
 *   6144x3072x4096 0.98 (0.93), 5376x5376x4096 0.97 (0.91); two runs of cuBLAS and this step alone:
 *   0.97-1.00 at all five and at 12288^3.  Where it saves no wave (4096^3: 4 either way) or the
 *   best path does better anyway, it loses: 4096^3 0.88 (0.98), 8192^3 0.94 (0.99; 15 waves against
 *   16, which Stream-K evens out), 8192x8192x1024 0.93 (0.94), and at 9216x9216x4096 it took 1.4%
 *   longer than the best path in the same run though its waves are fewer (18 against 20).  At
 *   12288^3, five runs of cuBLAS, step 17 (whole (128,256) tiles there) and this step: this step
 *   from 2.5% slower to 6.5% faster.  Per k tile, a (192,192) tile took 1.02-1.12 times as long as
 *   a (128,256) one in the same run (12288^3, each run's time over its waves times 192 k tiles:
 *   32 waves here, 35 for step 17), though it has 1.125 times the MMAs (not profiled; one
 *   difference is that three warpgroups issue MMAs here, two in step 17).  The best path's rule
 *   (hopper.cu, gh_estimates) counts its cost as ceil(T'/P) (1.01 k + 6) for T' (192,192) tiles,
 *   fitted to 12 shapes: those above, 7680x7680x4096 (3.6% slower than step 17 in the same run;
 *   the rule keeps step 17 there) and 7168x7168x4096 (timed without step 17: 0.93-0.94 of cuBLAS).
 * On an H200, one run of cuBLAS, step 17's launcher and this step: 8192^3 0.94 (0.98),
 *   7168x7168x4096 0.94 (0.96), 4096^3 0.86 (0.98).
 * Tried and not kept: clusters of 2 along m whose CTAs share B by TMA multicast (each loads a (64
 *   k, 96 n) half, as in step 14): the same times within 1% at six of seven shapes in two runs,
 *   2-5% faster at 7168x7168x4096, which the best path does not give to this step.  And step 17's
 *   (128,256) tile with four consumer warpgroups of (64,128) each (640 threads): faster at 12288^3
 *   (5.37 ms against 5.59) but slower at 4096^3 (0.94 against 0.99), 8192^3 and 8192x8192x1024.
 */
#include "hopper.h"
#include "tile_scheduler.h"
#include "labkit.h"

#define S21_BM 192
#define S21_BN 192
#define S21_STAGES 4
#define S21_STAGE_A (S21_BM * GH_BK * 2)        /* 24 KiB: three (64 m, 64 k) boxes of A */
#define S21_STAGE_B (S21_BN * GH_BK * 2)        /* 24 KiB: one (64 k, 192 n) box of B */
#define S21_STAGING (3 * 8192)                  /* one (64 rows, 32 columns) fp32 buffer per consumer */
/* the stages, the barriers (in a 1024-byte block), the staging buffers, slack to align to 1024; a
 * launch without the TMA-store epilogue leaves the staging buffers out (more L1, as steps 15, 17) */
#define S21_SMEM (S21_STAGES * (S21_STAGE_A + S21_STAGE_B) + 1024 + S21_STAGING + 1024)

// ANCHOR: kernel
__global__ void __launch_bounds__(512, 1)
k21_tile_192(const __grid_constant__ CUtensorMap tA, const __grid_constant__ CUtensorMap tB,
             const __grid_constant__ CUtensorMap tC, int tma_c, lts_params sched, int M, int N, int K, float alpha,
             float beta, float *C, int ldc)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ uint8_t raw[];
  uint8_t *sa = (uint8_t *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023), *sb = sa + S21_STAGES * S21_STAGE_A;
  uint64_t *full = (uint64_t *)(sb + S21_STAGES * S21_STAGE_B), *empty = full + S21_STAGES;
  uint8_t *staging = (uint8_t *)full + 1024;
  int tid = threadIdx.x, wg = tid / 128;
  int ktiles = (K + GH_BK - 1) / GH_BK;
  if (tid == 0) {
    gh_tma_prefetch_map(&tA);
    gh_tma_prefetch_map(&tB);
    if (tma_c) gh_tma_prefetch_map(&tC);
    for (int s = 0; s < S21_STAGES; ++s) { gh_bar_init(&full[s], 1); gh_bar_init(&empty[s], 12); }
    gh_fence_bar_init();
  }
  __syncthreads();
  gh_grid_wait();                                        // PDL: the launch ahead has ended, its writes visible
  gh_grid_release();                                     // the next launch may start its prologue
  int it = 0;
  if (wg == 0) {                                         // the producer
    GH_SETMAXNREG_DEC(40);
    if (tid == 0)
      for (int i = 0;; ++i) {
        lts_work w = lts_work_at(&sched, gridDim.z, blockIdx.x, blockIdx.y, blockIdx.z, i);
        if (!w.valid) break;
        if (w.m >= sched.tiles_m || w.n >= sched.tiles_n) continue;
        for (int kt = 0; kt < ktiles; ++kt, ++it) {
          int s = it % S21_STAGES;
          if (it >= S21_STAGES) gh_bar_wait(&empty[s], (it / S21_STAGES - 1) & 1);
          uint8_t *a = sa + s * S21_STAGE_A, *b = sb + s * S21_STAGE_B;
          gh_bar_expect(&full[s], S21_STAGE_A + S21_STAGE_B);
#pragma unroll
          for (int j = 0; j < 3; ++j) gh_tma_load(a + j * GH_BOX_A, &tA, &full[s], w.m * S21_BM + 64 * j, kt * GH_BK);
          gh_tma_load(b, &tB, &full[s], kt * GH_BK, w.n * S21_BN);
        }
      }
  } else {                                               // the consumers
    GH_SETMAXNREG_INC(152);
    int c = wg - 1;
    float acc[96];
    for (int i = 0;; ++i) {
      lts_work w = lts_work_at(&sched, gridDim.z, blockIdx.x, blockIdx.y, blockIdx.z, i);
      if (!w.valid) break;
      if (w.m >= sched.tiles_m || w.n >= sched.tiles_n) continue;
#pragma unroll
      for (int j = 0; j < 96; ++j) acc[j] = 0.0f;
      gh_fence_acc96(acc);
      for (int kt = 0; kt < ktiles; ++kt, ++it) {
        int s = it % S21_STAGES;
        gh_bar_wait(&full[s], (it / S21_STAGES) & 1);
        const uint8_t *a = sa + s * S21_STAGE_A + c * GH_BOX_A, *b = sb + s * S21_STAGE_B;
        gh_wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < GH_BK / 16; ++kk)
          gh_wgmma_192(acc, gh_desc(a + kk * 2048, GH_BOX_A, 1024), gh_desc(b + kk * 32, 16, 1024));
        gh_wgmma_commit();
        GH_WGMMA_WAIT(1);
        if (kt > 0 && tid % 32 == 0) gh_bar_arrive(&empty[(it - 1) % S21_STAGES]);
      }
      GH_WGMMA_WAIT(0);
      gh_fence_acc96(acc);
      if (tid % 32 == 0) gh_bar_arrive(&empty[(it - 1) % S21_STAGES]);
      int row0 = w.m * S21_BM + 64 * c, col0 = w.n * S21_BN;
      if (row0 >= M) continue;                           // rows past M: nothing to write
      if (tma_c) gh_epilogue_tma_slices(acc, 6, 1, staging + c * 8192, &tC, c, row0, col0, alpha);
      else gh_epilogue_cols(acc, 24, row0, col0, M, N, alpha, beta, C, ldc);
    }
    if (tma_c && tid % 128 == 0) gh_store_wait_all();  // C is written before the CTA ends
  }
#endif
}
// ANCHOR_END: kernel

void gemm_21_tile_192(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                      float *C, int ldc)
{
  gh_operands op;
  if (!gh_prepare_box(M, N, K, A, lda, B, ldb, &op, S21_BN)) {   // B in (64 k, 192 n) boxes
    gh_fallback(&op, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  static int ready;
  if (!ready) {
    LK_CHECK(cudaFuncSetAttribute(k21_tile_192, cudaFuncAttributeMaxDynamicSharedMemorySize, S21_SMEM));
    ready = 1;
  }
  CUtensorMap tC;
  int tma_c = gh_tma_c(&tC, M, N, K, beta, C, ldc);
  dim3 grid;
  lts_params sched = gh_persistent_schedule(M, N, S21_BM, S21_BN, "gemm_21_tile_192", &grid);   // hopper.cu
  cudaLaunchConfig_t cfg;
  cudaLaunchAttribute attr[2];
  gh_launch_config(&cfg, attr, grid, 512, tma_c ? S21_SMEM : S21_SMEM - S21_STAGING, 1);
  LK_CHECK(cudaLaunchKernelEx(&cfg, k21_tile_192, op.a, op.b, tC, tma_c, sched, M, N, K, alpha, beta, C, ldc));
  LK_CHECK(cudaGetLastError());
}
