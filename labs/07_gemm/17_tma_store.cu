/* Step 17 -- the epilogue through shared memory: C leaves by TMA store.
 *
 * What changes from step 13: the consumers no longer write C from registers with 4-byte stores.
 * Each consumer warpgroup writes its (64,256) part of the tile, 32 columns at a time, into a
 * staging buffer in shared memory, and one thread hands the buffer to the TMA unit
 * (cp.async.bulk.tensor, shared -> global), which writes it to C while the warpgroup fills the
 * other buffer and then goes on to the next tile's MMAs (where K <= 2048, the last 3 of its 8
 * slices wait in registers and leave during that tile's k loop: the held slices, below).  A buffer
 * is written again only once the TMA unit has read it (cp.async.bulk.wait_group.read).  A buffer
 * holds two (32 rows, 32 columns) fp32 boxes in TMA's 128-byte swizzle: a 128-byte column of a box
 * is 8 chunks of 16 bytes, chunk k stored at k ^ (column % 8) -- Swizzle<3,4,3> again, as for A and
 * B -- and with wgmma's accumulator layout the 32 lanes of a warp then write 32 different banks.
 * TMA clips the boxes at C's edges (N exactly; M in 16-byte chunks, see the launcher).  The
 * shared-memory writes need a proxy fence (fence.proxy.async) before the barrier that hands them
 * to the TMA unit.  Where the path is not valid (beta != 0: C must be read; C unaligned; M not a
 * multiple of 4) the kernel takes step 13's epilogue.  4 stages of 48 KiB and 4 staging buffers of
 * 8 KiB: 226 KiB (a launch without the staged epilogue leaves the buffers out, GH_SMEM_STAGED).
 *
 * The launcher is the lab's best path, by rules on the shape (hopper.cu, gh_best_path): where waves
 * of (192,192) tiles are estimated to beat the rest -> step 21 (or 22); with 3 (128,256) tiles an
 * SM or more, where B's columns lie off 128-byte lines -> step 14's clusters with this step's
 * epilogue, where A's do -> step 23's (its clusters turned, sharing A) where they pay; where K >=
 * 8192 (4096 in place of (192,192) tiles) and whole (128,256) tiles fill at least 8 waves -> step
 * 14's clusters; where whole
 * tiles would leave SMs idle for longer than Stream-K's fix-up costs -> step 15's kernel, with this
 * step's epilogue where it may (gh_stream_k in 15_stream_k.cu); C's (128,128)
 * tiles fit on the SMs in one wave -> step 16's kernel (smaller tiles, more SMs at work), or step
 * 19's where their k loops can be cut between 2 to 16 CTAs each; (192,96) or (192,128) tiles in one
 * wave, or in more in place of (128,256) tiles -> step 26 where their estimate beats the rest; fewer
 * than 3 (128,256) tiles per SM -> step 12, as step 13 does, or step 14's clusters where those
 * tiles take more than one wave; otherwise this kernel, with the
 * TMA-store epilogue for K <= 4096 (GH_TMA_C_MAX_K) and step 13's above.
 *
 * Measured (H100 80GB HBM3, TMA-store epilogue at every K; ratio to cuBLAS, step 13 in brackets).
 *   Runs that time cuBLAS, step 13, then this step, 9 runs: 8192x8192x1024 0.92-0.96 (0.86-0.88);
 *   4096^3 0.94-1.00 (0.92-0.99); 8192^3 0.96-0.97 (0.97-1.01, 3 runs).  Each step in a run of
 *   its own (cuBLAS, then the step), TFLOP/s: 8192x8192x1024 539 (496), 4096^3 671 (657), 8192^3
 *   654 (681), 12288^3 707 (723); 4097^3 the same as step 13 (2.04x of cuBLAS: ldc = 4097 breaks
 *   TMA's rule, so step 13's epilogue runs).  So the staged epilogue gains where the epilogue
 *   weighs most (9% at K = 1024, 2% at K = 4096) and loses 2-4% at K = 8192 and 12288, cause not
 *   yet found (the TMA unit serves the stores and the next tile's loads alike; the shared-memory
 *   carveout leaves 28 KiB of L1 instead of 55): hence GH_TMA_C_MAX_K.  ncu at 8192x8192x1024,
 *   one launch: 235 us against step 13's 261 us; with ncu's locked clocks, the tensor pipe busy
 *   71% of the time against 60%.  Small problems through step 16, TFLOP/s: 1000^3 141 (121),
 *   768^3 78 (68).
 * The held slices (gh_held, hopper.h), where K <= 2048 (GH_HOLD_MAX_K, k17_tma_store_held): each
 *   consumer writes the first 5 of its 8 slices at the end of the tile and keeps the last 3 (48
 *   registers) for the next tile's k loop, which writes one after the MMAs of k tiles 2, 4 and 6
 *   are issued (a shorter k loop writes the rest before its own epilogue; the CTA's last tile, at
 *   the end).  Why (H200, 8192x8192x1024, builds not committed): %globaltimer gave 11.9 us of k
 *   loop and 3.3 us of epilogue per tile (2.3 us with 16 SMs at work); without the epilogue a call
 *   took 0.200 ms against 0.259 with it.  CTAs started up to 7.5 us apart, four staging buffers a
 *   warpgroup, float4 stores in place of TMA, or one consumer started 1-3 k tiles after the other
 *   did not shorten or hide it.  Against this kernel without them, in one process, four runs,
 *   TFLOP/s: 4096x4096x1024 514-528 -> 526-543 (+2.3 to +3.7% run by run); 8192x8192x1024 507-524
 *   -> 525-537 (+1.9 to +3.6%); 4096x4096x2048 584-595 -> 582-604 (-0.3 to +1.5%); 6144x6144x2048
 *   584-594 -> 588-596 (-0.2 to +0.9%); 4096^3 637-641 -> 626-637 (-1.8 to 0.0%), hence the limit.
 *   The body is built twice (s17_body): one kernel choosing at run time spilled 504 bytes.  Two
 *   held slices gained less; four spilled.
 * Where a version is timed matters on this GPU: after about a second of full load the power
 *   limit (700 W) pulls the SM clock from 1980 MHz down to 1100-1600 MHz (nvidia-smi, sampled
 *   every 200 ms), so a version timed fourth in a run (cuBLAS, two other steps, then this one) ran
 *   at 0.79-0.85 at 8192x8192x1024 and 0.80-0.83 at 4096^3 in 8 runs.  Compare versions timed in
 *   the same place: --versions 13 and --versions 17 in separate runs, or at most two per run.
 */
#include "hopper.h"
#include "tile_scheduler.h"
#include "labkit.h"

#define S17_STAGES 4
#define S17_SMEM GH_SMEM_STAGED(S17_STAGES)


// ANCHOR: kernel
/* the kernel's body, built twice: k17_tma_store_held (hold 1) where TMA writes C and K <= GH_HOLD_MAX_K,
 * k17_tma_store (hold 0, every slice at the tile's end) elsewhere */
__device__ static __forceinline__ void s17_body(const CUtensorMap &tA, const CUtensorMap &tB, const CUtensorMap &tC,
                                                int tma_c, int hold, const lts_params &sched, int M, int N, int K,
                                                float alpha, float beta, float *C, int ldc)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ uint8_t raw[];
  uint8_t *staging;
  gh_smem_plan p = gh_plan_staged(raw, S17_STAGES, &staging);
  int tid = threadIdx.x, wg = tid / 128;
  int ktiles = (K + GH_BK - 1) / GH_BK;
  if (tid == 0) {
    gh_tma_prefetch_map(&tA);
    gh_tma_prefetch_map(&tB);
    if (tma_c) gh_tma_prefetch_map(&tC);
    for (int s = 0; s < S17_STAGES; ++s) { gh_bar_init(&p.full[s], 1); gh_bar_init(&p.empty[s], 8); }
    gh_fence_bar_init();
  }
  __syncthreads();
  gh_grid_wait();                                        // PDL: the launch ahead has ended, its writes visible
  gh_grid_release();                                     // the next launch may start its prologue
  int it = 0;
  if (wg == 0) {                                         // the producer, as in step 13
    GH_SETMAXNREG_DEC(40);
    if (tid == 0)
      for (int i = 0;; ++i) {
        lts_work w = lts_work_at(&sched, gridDim.z, blockIdx.x, blockIdx.y, blockIdx.z, i);
        if (!w.valid) break;
        if (w.m >= sched.tiles_m || w.n >= sched.tiles_n) continue;
        for (int kt = 0; kt < ktiles; ++kt, ++it) {
          int s = it % S17_STAGES;
          if (it >= S17_STAGES) gh_bar_wait(&p.empty[s], (it / S17_STAGES - 1) & 1);
          gh_load_ktile(&p, s, &tA, &tB, w.m, w.n, kt);
        }
      }
  } else {                                               // the consumers
    GH_SETMAXNREG_INC(232);
    int c = wg - 1;
    float acc[128];
    gh_held held;                                        // the last tile's held slices of C
    held.row0 = -1;
    held.nb = 0;
    uint8_t *stage = staging + c * 16384;
    for (int i = 0;; ++i) {
      lts_work w = lts_work_at(&sched, gridDim.z, blockIdx.x, blockIdx.y, blockIdx.z, i);
      if (!w.valid) break;
      if (w.m >= sched.tiles_m || w.n >= sched.tiles_n) continue;
      gh_zero_acc(acc);
      gh_fence_acc(acc);
      for (int kt = 0; kt < ktiles; ++kt, ++it) {
        int s = it % S17_STAGES;
        gh_bar_wait(&p.full[s], (it / S17_STAGES) & 1);
        gh_mma_ktile(acc, p.a + s * GH_STAGE_A, p.b + s * GH_STAGE_B, c);
        if (hold && tma_c) gh_held_during(&held, kt, stage, &tC, c, alpha);   // while the MMAs run
        GH_WGMMA_WAIT(1);
        if (kt > 0 && tid % 32 == 0) gh_bar_arrive(&p.empty[(it - 1) % S17_STAGES]);
      }
      GH_WGMMA_WAIT(0);
      gh_fence_acc(acc);
      if (tid % 32 == 0) gh_bar_arrive(&p.empty[(it - 1) % S17_STAGES]);
      int row0 = w.m * GH_BM + 64 * c, col0 = w.n * GH_BN;
      if (hold && tma_c) {
        gh_held_rest(&held, ktiles, stage, &tC, c, alpha);   // those a short k loop had no room for
        gh_epilogue_tma_hold(acc, &held, stage, &tC, c, row0, col0, alpha);
      } else if (tma_c) gh_epilogue_tma(acc, stage, &tC, c, row0, col0, alpha);
      else gh_epilogue(acc, row0, col0, M, N, alpha, beta, C, ldc);
    }
    if (tma_c) {
      if (hold) gh_held_rest(&held, 0, stage, &tC, c, alpha);   // the last tile's
      if (tid % 128 == 0) gh_store_wait_all();           // C is written before the CTA ends
    }
  }
#endif
}
__global__ void __launch_bounds__(384, 1)
k17_tma_store(const __grid_constant__ CUtensorMap tA, const __grid_constant__ CUtensorMap tB,
              const __grid_constant__ CUtensorMap tC, int tma_c, lts_params sched, int M, int N, int K, float alpha,
              float beta, float *C, int ldc)
{
  s17_body(tA, tB, tC, tma_c, 0, sched, M, N, K, alpha, beta, C, ldc);
}
__global__ void __launch_bounds__(384, 1)
k17_tma_store_held(const __grid_constant__ CUtensorMap tA, const __grid_constant__ CUtensorMap tB,
                   const __grid_constant__ CUtensorMap tC, int tma_c, lts_params sched, int M, int N, int K,
                   float alpha, float beta, float *C, int ldc)
{
  s17_body(tA, tB, tC, tma_c, 1, sched, M, N, K, alpha, beta, C, ldc);
}
// ANCHOR_END: kernel

static void best_path(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                      float *C, int ldc)
{
  // ANCHOR: route
  /* the best path by the shape (hopper.cu): step 28's kernels on the CUDA cores where C has 1 or 2 rows
   * or columns or K is 1 or 2 (or up to 8, C small); step 25's narrow tiles where C has 64 rows or
   * columns or fewer; where C has 65 to 128 columns and more (128,128) tiles than SMs, step 30's
   * (256,bn) tiles, step 26's (192,bn) ones or step 29's (128,128) ones, one column of them, whichever
   * height puts the fewest rows of A on the busiest SM; step 29's (128,96) or (128,128) tiles, one a
   * CTA, where (128,128) ones fit on
   * the SMs at once, step 20's (64,128) CTAs do not, and K <= 3072 (beyond, in place of steps 16 and
   * 26, and of Stream-K with both operands on lines up to K = 6656, and in pairs of CTAs that share
   * A where the tiles along n are even in number, then in place of step 15 too); step 14's clusters with this
   * step's epilogue in place of persistent tiles where B's columns lie off 128-byte lines, or step
   * 27's Stream-K over pairs of tiles in the same clusters where whole tiles' last wave would leave
   * many of them idle;
   * step 14's clusters also in place of (128,256) or (192,192) tiles where the k loop is long and they
   * fill many waves, and step 26's (192,128) tiles in place of persistent (128,256) ones where their
   * waves cost 2% less by its estimate; step 23's, which share A, where A's columns lie off lines, or,
   * with both on lines, in place of this kernel's whole tiles where K > 4096 and the pairs of tiles
   * along n take no more waves than the tiles (share_a_on_lines_pays); or,
   * where TMA may not write C, the path without them; step 21's (192,192) tiles where their waves are
   * the fullest and its estimate the lowest, or step 22's Stream-K over them where that is lower still;
   * Stream-K where whole tiles would leave SMs idle for longer than its fix-up costs; step 20's
   * (64,128) tiles where they fit on the SMs at once and its estimate is the lowest; step 16's kernel
   * where C's (128,128) tiles fit on the SMs at once (one tile per CTA, twice as many SMs at work as
   * (128,256) tiles), but where it would read both operands off lines with every other column starting
   * inside a 32-byte sector, padded copies of both and their own route (gh_pad_pays; for step 29,
   * where K >= 1024), or step 19's
   * where the SMs hold two parts of each tile or more; step 12 under 3 tiles of (128,256) per SM;
   * there, where B's columns lie off lines, step 27 or step 14's clusters in place of step 12 and of
   * Stream-K, and step 24's (192,192) tiles in clusters in place of step 21's, and where they lie on
   * lines, step 14's clusters in place of step 12 where its tiles take more than one wave; otherwise
   * this kernel; under 3 tiles an SM, first, step 26's (192,96) or (192,128) tiles where they fill
   * one wave, or more in place of (128,256) tiles, and their estimate is the lowest (operands on
   * lines, step 20's CTAs too many to fit), then, with B on lines, step 22 where its schedule cuts
   * every (192,192) tile into 2 to 4 equal parts and its estimate is the lowest; and, a wave of
   * (128,256) tiles or more with both operands on lines, step 22 in place of step 15 where its
   * estimate is far below step 15's (sk192_pays) */
  int sms = gh_sm_count(), route = gh_best_path(M, N, K, lda, ldb, sms);
  if (gh_pad_pays(M, N, K, lda, ldb, sms) && (uintptr_t)A % 16 == 0 && (uintptr_t)B % 16 == 0) {
    gemm_pad_pair_bf16(&A, &lda, M, K, &B, &ldb, N);     // both operands off lines, columns inside sectors:
    route = gh_best_path(M, N, K, lda, ldb, sms);        // copies on 128-byte lines (pad.cu), routed as such
  }
  if (route == 14 || route == 23) {                      // step 14's clusters with this step's epilogue, ...
    if (gh_clusters(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, 1, route == 23)) return;
    route = gh_best_path_unclustered(M, N, K, sms);      // ... or, where TMA may not write C, the rest
  }
  switch (route) {
  case 28: gemm_28_thin(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc); return;
  case 21: gemm_21_tile_192(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc); return;
  case 24: gemm_24_clusters_192(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc); return;
  case 25: gemm_25_narrow(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc); return;
  case 26: gemm_26_tile_192_narrow(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc); return;
  case 22: gemm_22_stream_k_192(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc); return;
  case 15: gh_stream_k(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, 1, 0); return;   // with this epilogue
  case 27: gh_stream_k(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, 1, 1); return;   // the same, in clusters
  case 16: gemm_16_pingpong(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc); return;
  case 19: gemm_19_split_k(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc); return;
  case 20: gemm_20_small_tiles(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc); return;
  case 29: gemm_29_one_wave(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc); return;
  case 30: gemm_30_tall(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc); return;
  case 12: gemm_12_warp_specialized(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc); return;
  }
  // ANCHOR_END: route
  gh_operands op;
  if (!gh_prepare(M, N, K, A, lda, B, ldb, &op)) {
    gh_fallback(&op, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  static int ready;
  if (!ready) {
    LK_CHECK(cudaFuncSetAttribute(k17_tma_store, cudaFuncAttributeMaxDynamicSharedMemorySize, S17_SMEM));
    LK_CHECK(cudaFuncSetAttribute(k17_tma_store_held, cudaFuncAttributeMaxDynamicSharedMemorySize, S17_SMEM));
    ready = 1;
  }
  CUtensorMap tC;
  int tma_c = gh_tma_c(&tC, M, N, K, beta, C, ldc);     // where the TMA-store epilogue may and does pay
  int hold = tma_c && K <= GH_HOLD_MAX_K;                // and where the held slices pay
  dim3 grid;
  lts_params sched = gh_persistent_schedule(M, N, GH_BM, GH_BN, "gemm_17_tma_store", &grid);   // hopper.cu
  cudaLaunchConfig_t cfg;
  cudaLaunchAttribute attr[2];
  gh_launch_config(&cfg, attr, grid, 384, tma_c ? S17_SMEM : S17_SMEM - GH_STAGING, 1);
  LK_CHECK(cudaLaunchKernelEx(&cfg, hold ? k17_tma_store_held : k17_tma_store, op.a, op.b, tC, tma_c, sched, M, N, K,
                               alpha, beta, C, ldc));
  LK_CHECK(cudaGetLastError());
}
/* The best path, with gh_short_k set: below K = 128 its kernels keep the problem where A and B need no
 * padded copy (hopper.cu says why), where the other launchers hand it to step 9 */
void gemm_17_tma_store(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                       float *C, int ldc)
{
  gh_short_k = 1;
  best_path(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
  gh_short_k = 0;
}
