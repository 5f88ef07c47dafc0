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
 * Shared memory: 4 stages of 48 KiB, 1 KiB of barriers and, for the TMA-store epilogue, one 8 KiB
 * staging buffer per consumer (two, as step 17 has, do not fit beside 4 stages): 217 KiB, laid
 * out, loaded and multiplied by the gh192_* functions of hopper.h, which step 22 shares.
 * Everything else is step 17's: the static persistent schedule, the stages' full and empty
 * barriers (12 consumer warps release a stage), C by TMA stores where gh_tma_c allows, else from
 * the registers.
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
 * Clusters of 2 along m whose CTAs share B by TMA multicast (each loads a (64 k, 96 n) half, as in
 *   step 14; the kernel's `cluster` argument): where B's columns lie on 128-byte lines, the same
 *   times within 1% at six of seven shapes in two runs, 2-5% faster at 7168x7168x4096, which the
 *   best path does not give to this step.  Where they lie off lines, they are step 24
 *   (24_clusters_192.cu).
 * Tried and not kept: step 17's (128,256) tile with four consumer warpgroups of (64,128) each (640 threads): faster at 12288^3
 *   (5.37 ms against 5.59) but slower at 4096^3 (0.94 against 0.99), 8192^3 and 8192x8192x1024.
 */
#include "hopper.h"
#include "tile_scheduler.h"
#include "labkit.h"

// ANCHOR: kernel
/* The kernel's body, for (192,bn) tiles: bn = 192 here; 128 and 96 for step 26 (26_tile_192_narrow.cu),
 * whose kernels, below, are this body with its own bn (a constant in each, so each compiles to one
 * chain of MMAs and one epilogue) */
__device__ __forceinline__ static void
tile_192_body(const CUtensorMap *tA, const CUtensorMap *tB, const CUtensorMap *tC, int tma_c, int cluster,
              const lts_params *sched, int M, int N, int K, float alpha, float beta, float *C, int ldc, int bn)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ __align__(1024) uint8_t raw[];
  gh192_smem p = gh192_plan(raw);                        // 4 stages of 48 KiB, the barriers, 3 staging buffers
  int tid = threadIdx.x, wg = tid / 128;
  int ktiles = (K + GH_BK - 1) / GH_BK;
  uint32_t rank = cluster ? gh_cluster_rank() : 0;       // step 24: blockIdx.x % 2 in a cluster of 2 along m
  if (tid == 0) gh192_setup(&p, tA, tB, tC, tma_c, cluster ? 2 : 1);
  if (cluster) gh_cluster_sync();
  else __syncthreads();
  gh_grid_wait();                                        // PDL: the launch ahead has ended, its writes visible
  gh_grid_release();                                     // the next launch may start its prologue
  int it = 0;
  if (wg == 0) {                                         // the producer
    GH_SETMAXNREG_DEC(40);
    if (tid == 0)
      for (int i = 0;; ++i) {
        lts_work w = lts_work_at(sched, gridDim.z, blockIdx.x, blockIdx.y, blockIdx.z, i);
        if (!w.valid) break;
        if (w.m - (int)rank >= sched->tiles_m || w.n >= sched->tiles_n) continue;   // the whole cluster skips
        for (int kt = 0; kt < ktiles; ++kt, ++it) {
          int s = it % GH192_STAGES;
          if (it >= GH192_STAGES) gh_bar_wait(gh192_empty(&p, s), (it / GH192_STAGES - 1) & 1);
          if (cluster) gh192_load_ktile_shared(&p, s, tA, tB, w.m, w.n, kt, rank);   // B's half for both
          else gh192_load_ktile(&p, s, tA, tB, w.m, w.n, kt, bn);   // A's three (64,64) boxes, B's (64,bn)
        }
      }
  } else {                                               // the consumers
    GH_SETMAXNREG_INC(152);
    int c = wg - 1;
    float acc[96];
    for (int i = 0;; ++i) {
      lts_work w = lts_work_at(sched, gridDim.z, blockIdx.x, blockIdx.y, blockIdx.z, i);
      if (!w.valid) break;
      if (w.m - (int)rank >= sched->tiles_m || w.n >= sched->tiles_n) continue;
#pragma unroll
      for (int j = 0; j < 96; ++j) acc[j] = 0.0f;
      gh_fence_acc96(acc);
      for (int kt = 0; kt < ktiles; ++kt, ++it) {
        int s = it % GH192_STAGES;
        gh_bar_wait(gh192_full(&p, s), (it / GH192_STAGES) & 1);
        gh192_mma_ktile(acc, &p, s, c, bn);              // local_tile(tile, (_64,_bn), (c,_0)) += A_c B
        GH_WGMMA_WAIT(1);
        if (kt > 0) gh192_release(&p, (it - 1) % GH192_STAGES, cluster, rank);
      }
      GH_WGMMA_WAIT(0);
      gh_fence_acc96(acc);
      gh192_release(&p, (it - 1) % GH192_STAGES, cluster, rank);
      gh192_epilogue(acc, &p, tma_c, tC, c, w.m * GH192_BM + 64 * c, w.n * bn, M, N, alpha, beta, C, ldc, bn);
    }
    if (tma_c && tid % 128 == 0) gh_store_wait_all();  // C is written before the CTA ends
  }
  if (cluster) gh_cluster_sync();                        // no CTA leaves while its peer may still signal it
#endif
}
#define TILE_192_KERNEL(name, bn) \
  __global__ void __launch_bounds__(512, 1) \
  name(const __grid_constant__ CUtensorMap tA, const __grid_constant__ CUtensorMap tB, \
       const __grid_constant__ CUtensorMap tC, int tma_c, int cluster, lts_params sched, \
       int M, int N, int K, float alpha, float beta, float *C, int ldc) \
  { \
    tile_192_body(&tA, &tB, &tC, tma_c, cluster, &sched, M, N, K, alpha, beta, C, ldc, bn); \
  }
TILE_192_KERNEL(k21_tile_192, 192)
TILE_192_KERNEL(k26_tile_192x128, 128)
TILE_192_KERNEL(k26_tile_192x96, 96)
// ANCHOR_END: kernel

/* (192,bn) tiles, persistent: (192,192) alone (cluster 0, step 21) or in clusters of 2 along m that
 * share B (cluster 1, step 24), or (192,128) and (192,96) alone (bn 128 or 96, step 26) */
void gh_tile_192(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                 float *C, int ldc, int cluster, int bn)
{
  if ((bn != 96 && bn != 128 && bn != GH192_BN) || (cluster && bn != GH192_BN)) {
    fprintf(stderr, "gh_tile_192: no kernel for (192,%d) tiles%s\n", bn, cluster ? " in clusters" : "");
    exit(1);
  }
  gh_operands op;
  if (!gh_prepare_box(M, N, K, A, lda, B, ldb, &op, cluster ? GH192_BN / 2 : bn)) {   // B in (64 k, bn n)
    gh_fallback(&op, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);             // boxes, or halves
    return;
  }
  static int active;                                     // clusters of 2 resident at once
  cudaLaunchConfig_t cfg;
  cudaLaunchAttribute attr[2];
  if (!active) {
    LK_CHECK(cudaFuncSetAttribute(k21_tile_192, cudaFuncAttributeMaxDynamicSharedMemorySize, GH192_SMEM));
    LK_CHECK(cudaFuncSetAttribute(k26_tile_192x128, cudaFuncAttributeMaxDynamicSharedMemorySize, GH192_SMEM));
    LK_CHECK(cudaFuncSetAttribute(k26_tile_192x96, cudaFuncAttributeMaxDynamicSharedMemorySize, GH192_SMEM));
    gh_launch_config(&cfg, attr, dim3(2, 1, 1), 512, GH192_SMEM, 2);
    LK_CHECK(cudaOccupancyMaxActiveClusters(&active, k21_tile_192, &cfg));
    if (active < 1) { fprintf(stderr, "gemm_21_tile_192: no cluster of 2 fits on this GPU\n"); exit(1); }
  }
  CUtensorMap tC;
  int tma_c = gh_tma_c(&tC, M, N, K, beta, C, ldc);
  lts_params sched;
  dim3 grid;
  if (cluster) {
    const char *err;
    int tiles_m = (M + GH192_BM - 1) / GH192_BM, tiles_n = (N + GH192_BN - 1) / GH192_BN;
    int swz = gh_schedule_swizzle(gh_raster_m ? tiles_n : (tiles_m + 1) / 2);
    if (!lts_init(&sched, tiles_m, tiles_n, 1, 2, 1, swz, gh_raster_m, &err)) {
      fprintf(stderr, "gemm_24_clusters_192: %s\n", err);
      exit(1);
    }
    int gx, gy, gz;
    lts_grid(&sched, active, &gx, &gy, &gz);             // (2, 1, P): P clusters of 2
    grid = dim3(gx, gy, gz);
  } else {
    // hopper.cu: along n where C is tall, step 21's tiles from M >= 1.5 N, step 26's from M > N
    if (bn == GH192_BN)
      sched = gh_persistent_schedule(M, N, GH192_BM, bn, "gemm_21_tile_192", &grid);
    else
      sched = gh_persistent_schedule_along(M, N, GH192_BM, bn, gh_narrow_raster_m(M, N), "gemm_26_tile_192_narrow",
                                           &grid);
  }
  gh_launch_config(&cfg, attr, grid, 512, tma_c ? GH192_SMEM : GH192_SMEM - GH192_STAGING, cluster ? 2 : 1);
  void (*kernel)(CUtensorMap, CUtensorMap, CUtensorMap, int, int, lts_params, int, int, int, float, float, float *,
                 int) = bn == 96 ? k26_tile_192x96 : bn == 128 ? k26_tile_192x128 : k21_tile_192;
  LK_CHECK(cudaLaunchKernelEx(&cfg, kernel, op.a, op.b, tC, tma_c, cluster, sched, M, N, K, alpha, beta, C, ldc));
  LK_CHECK(cudaGetLastError());
}

void gemm_21_tile_192(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                      float *C, int ldc)
{
  gh_tile_192(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, 0, GH192_BN);
}
