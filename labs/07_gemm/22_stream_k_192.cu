/* Step 22 -- Stream-K over (192,192) tiles: step 15's schedule and fix-up with step 21's tile.
 *
 * What changes from step 21: the work is counted in k tiles of (192,192) tiles, as step 15 counts
 * them for (128,256) tiles (chapter 6's Stream-K scheduler, lib/tile_scheduler.h): the first waves
 * of tiles whole, the k loops of the rest cut into one contiguous range per CTA, each range walked
 * whole tiles first, then the part of its last tile, then its first tile.  A CTA whose range ends
 * inside a tile leaves its partial sums in its workspace slot and raises its flag; the tile's owner
 * (the CTA with its last k tile) adds the earlier CTAs' sums in descending k and writes the tile.
 * The slot holds what the three consumer warpgroups hold, 384 threads x 96 accumulators = 144 KiB a
 * CTA, stored thread-fastest so that every store and load of a warp is coalesced.  Everything else
 * is step 21's (hopper.h, gh192_*): three consumer warpgroups of one m64n192k16 chain each beside
 * one producer, 4 stages of 48 KiB, C by TMA stores through one staging buffer per consumer where
 * gh_tma_c allows.
 *
 * What it is for: shapes where (192,192) tiles are the better tile (the best path would run step
 * 21) but leave the last wave part empty: 6144 x 6144 has 1024 of them, 7.76 waves of 132.  The
 * best path (hopper.cu, gh_best_path) takes this step where step 21 would run and Stream-K's
 * estimate over the same tiles, T' (1.01 k + 6) / P' + 24 (+ its parts term), is below step
 * 21's, ceil(T'/P) (1.01 k + 6): step 21's and step 15's terms, not fitted again.
 *
 * The registers: 65536 / 512 = 128 per thread at the start.  With the stages' addresses rounded
 * up to 1024 bytes at run time (step 21's first plan), ptxas spilled one register (4 bytes) in
 * the owner's fix-up; with every address a constant offset from the start of dynamic shared
 * memory (gh192_plan), none.
 *
 * Measured (H100 80GB HBM3, ratio to cuBLAS in the same run, in turns).  Against step 21, at the
 *   shapes where the rule takes this step: 6144x6144x8192 0.977 (0.881), 7680x7680x8192 0.968
 *   (0.885), 6144x6144x16384 0.941 (0.916), 12288^3 1.014 (0.990), 9216x9216x4096 0.956 (0.969);
 *   where it keeps step 21, level: 6144x6144x4096 1.038 (1.036), 3072x3072x16384 0.979 (0.976)
 *   (output-sk192.txt).  The same command again: 0.949 (0.901), 0.965 (0.900), 0.941 (0.959),
 *   1.007 (0.981), 0.945 (0.926); kept: 0.942 (0.954), 0.967 (0.987).  So faster in both runs at
 *   6144x6144x8192, 7680x7680x8192 and 12288^3, a draw at the other two.  An earlier run, against the best path before this step: 6144x6144x8192
 *   0.983 (step 21, 0.921); where that path runs step 15 or 12, 2048x2048x16384 0.894 (0.980),
 *   5120x5120x4096 0.885 (0.982), 4096x4096x16384 0.885 (0.931), 8192^3 0.968 (0.965),
 *   1536x1536x16384 0.955 (0.960), and 3072x3072x16384 0.928 (step 21, 0.984; 0.979 in the run
 *   above).  Ragged (192,192) tiles waste about 6% of the MMAs at 2048 and 4096, and the long K
 *   with few tiles gains nothing from the larger tile there: hence the rule above never puts
 *   this step in place of step 15.  Why the gain at K = 8192 exceeds the last wave's idle share
 *   (about 3% at 6144x6144x8192) was not profiled; both kernels write C from the registers there.
 * Exact splits.  With fewer tiles than SMs, 132 CTAs cut 64 tiles of 128 k tiles (1536 x 1536 x
 *   8192) into ranges of 62 or 63 k tiles that do not line up with the tiles: 60 CTAs hold parts
 *   of two tiles, and every tile has 3 parts.  On 128 CTAs every tile has exactly 2 parts, each
 *   CTA one.  The schedule (hopper.cu, stream_k_ctas) now takes p T CTAs, p = 2 to 4, where its
 *   estimate is the lower, and the best path takes this step below 3 tiles an SM, with B on
 *   lines, where such a split's estimate is the lowest (exact_split_pays).  On an H200, this step
 *   with all 132 CTAs -> with the exact split, ratios to cuBLAS in the same run, two runs each
 *   (a build made to force one or the other): 1536x1536x8192 0.85-0.86 -> 0.91-0.92,
 *   1536x1536x4096 0.72-0.73 -> 0.82-0.83, 1344x1152x8192 (3 parts of 42 tiles, 126 CTAs)
 *   0.66-0.69 -> 0.73-0.74, 768x1536x8192 (4 parts of 32) 0.64-0.65 -> 0.72-0.74; but
 *   1152x1536x8192 (2 parts of 48 tiles, 96 CTAs) 0.82 -> 0.76, so the estimate weighs the SMs an
 *   exact split leaves idle.  The best path before -> after is in chapter 7.
 * PDL: the consumers release the next launch when they are done, not at the start, as step 15's
 *   kernel does (15_stream_k.cu says why).  H200, queued (07_gemm --launch-cost), us a call, two
 *   runs, plain / released at the start / at the end: 2456x552x7744 44.5-45.1 / 47.6 / 42.9-43.3,
 *   768x1536x8192 41.2 / 41.6 / 39.3, 1536x1536x8192 59.8-60.1 / 59.8-59.9 / 58.0-58.1,
 *   1152x1152x8192 45.4-46.0 / 44.9-45.1 / 43.9-44.0, 1040x1974x16128 104.3-105.1 / 105.0-105.1 /
 *   102.4; at the end the same or faster at all fifteen shapes timed.
 */
#include "hopper.h"
#include "tile_scheduler.h"
#include "labkit.h"

#define S22_SLOT (3 * 128 * 96)               /* floats of one CTA's partial sums: 3 warpgroups x 128 threads x 96 */

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
/* The 384 consumer threads only (named barrier 1; the producer warpgroup is not in it). */
__device__ static inline void s22_consumers_sync(void) { asm volatile("bar.sync 1, 384;\n" ::: "memory"); }
#endif

// ANCHOR: kernel
__global__ void __launch_bounds__(512, 1)
k22_stream_k_192(const __grid_constant__ CUtensorMap tA, const __grid_constant__ CUtensorMap tB,
                 const __grid_constant__ CUtensorMap tC, int tma_c, lts_sk_params sk, int M, int N, float alpha,
                 float beta, float *C, int ldc, float *work, int *flags, int epoch)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ __align__(1024) uint8_t raw[];
  gh192_smem p = gh192_plan(raw);                        // step 21's stages, barriers and staging buffers
  int tid = threadIdx.x, wg = tid / 128, cta = blockIdx.x;
  if (tid == 0) gh192_setup(&p, &tA, &tB, &tC, tma_c, 1);
  __syncthreads();
  gh_grid_wait();                                        // PDL: the launch ahead has ended, its writes visible
  int it = 0;                                            // k tiles through the ring so far
  if (wg == 0) {                                         // the producer: every unit's k tiles
    GH_SETMAXNREG_DEC(40);
    if (tid == 0)
      for (int i = 0;; ++i) {
        lts_sk_unit u = lts_sk_unit_at(&sk, cta, i);
        if (!u.valid) break;
        for (int kt = u.k_begin; kt < u.k_end; ++kt, ++it) {
          int s = it % GH192_STAGES;
          if (it >= GH192_STAGES) gh_bar_wait(gh192_empty(&p, s), (it / GH192_STAGES - 1) & 1);
          gh192_load_ktile(&p, s, &tA, &tB, u.m, u.n, kt, GH192_BN);
        }
      }
  } else {                                               // the consumers
    GH_SETMAXNREG_INC(152);
    int c = wg - 1, t = tid - 128;                       // t: 0..383 among the consumers
    float acc[96];
    for (int i = 0;; ++i) {
      lts_sk_unit u = lts_sk_unit_at(&sk, cta, i);
      if (!u.valid) break;
#pragma unroll
      for (int j = 0; j < 96; ++j) acc[j] = 0.0f;
      gh_fence_acc96(acc);
      for (int kt = u.k_begin; kt < u.k_end; ++kt, ++it) {
        int s = it % GH192_STAGES;
        gh_bar_wait(gh192_full(&p, s), (it / GH192_STAGES) & 1);
        gh192_mma_ktile(acc, &p, s, c, GH192_BN);
        GH_WGMMA_WAIT(1);
        if (kt > u.k_begin && tid % 32 == 0) gh_bar_arrive(gh192_empty(&p, (it - 1) % GH192_STAGES));
      }
      GH_WGMMA_WAIT(0);
      gh_fence_acc96(acc);
      if (tid % 32 == 0) gh_bar_arrive(gh192_empty(&p, (it - 1) % GH192_STAGES));   // the unit's last stage
      // ANCHOR: fixup
      if (u.k_end < sk.k_iters) {                        // partial sums: to slot `cta`, then the flag
        float *slot = work + (size_t)cta * S22_SLOT + t;
#pragma unroll
        for (int j = 0; j < 96; ++j) slot[j * 384] = acc[j];   // thread-fastest: coalesced
        s22_consumers_sync();                            // all 384 threads' sums are written ...
        if (t == 0) gemm_flag_store(&flags[cta], epoch);  // ... then published (a release at GPU scope)
        continue;
      }
      for (int q = 1; q <= u.peers; ++q) {               // the owner: add the peers' sums, k descending
        if (t == 0) gemm_flag_wait(&flags[cta - q], epoch);   // traps after ~10 s: a lost partial sum
        s22_consumers_sync();
        const float *slot = work + (size_t)(cta - q) * S22_SLOT + t;
#pragma unroll
        for (int j = 0; j < 96; ++j) acc[j] += __ldcg(slot + j * 384);
      }
      // ANCHOR_END: fixup
      gh192_epilogue(acc, &p, tma_c, &tC, c, u.m * GH192_BM + 64 * c, u.n * GH192_BN, M, N, alpha, beta, C, ldc,
                     GH192_BN);
    }
    if (tma_c && tid % 128 == 0) gh_store_wait_all();  // C is written before the CTA ends
    gh_grid_release();                                   // PDL: the next launch only now, as in step 15
  }
#endif
}
// ANCHOR_END: kernel

void gemm_22_stream_k_192(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                          float *C, int ldc)
{
  gh_operands op;
  if (!gh_prepare_box(M, N, K, A, lda, B, ldb, &op, GH192_BN)) {   // B in (64 k, 192 n) boxes
    gh_fallback(&op, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  static int ready;
  static gh_sk_workspace ws;
  if (!ready) {
    LK_CHECK(cudaFuncSetAttribute(k22_stream_k_192, cudaFuncAttributeMaxDynamicSharedMemorySize, GH192_SMEM));
    ready = 1;
  }
  lts_sk_params sk = gh_stream_k_schedule(M, N, K, GH192_BM, GH192_BN, gh_sm_count(),
                                          "gemm_22_stream_k_192");   // hopper.cu
  int epoch = gh_stream_k_epoch(&ws, S22_SLOT);          // 144 KiB a CTA
  CUtensorMap tC;
  int tma_c = gh_tma_c(&tC, M, N, K, beta, C, ldc);
  cudaLaunchConfig_t cfg;
  cudaLaunchAttribute attr[2];
  gh_launch_config(&cfg, attr, dim3(sk.ctas), 512, tma_c ? GH192_SMEM : GH192_SMEM - GH192_STAGING, 1);
  LK_CHECK(cudaLaunchKernelEx(&cfg, k22_stream_k_192, op.a, op.b, tC, tma_c, sk, M, N, alpha, beta, C, ldc, ws.work,
                              ws.flags, epoch));
  LK_CHECK(cudaGetLastError());
}
