/* Step 16 -- ping-pong: each consumer warpgroup owns a whole output tile, and the two take turns.
 *
 * What changes from step 13: there, both consumer warpgroups work on one (128,256) tile and finish
 * it together, so while they write C no MMA is issued.  Here each consumer warpgroup computes a
 * (128,128) tile of its own -- two m64n128k16 MMAs per k16, two chains of 64 accumulators, still
 * 128 registers per thread -- and the CTA's tiles (the same static persistent schedule) are dealt
 * out alternately: the even ones of the CTA's walk to consumer 0, the odd ones to consumer 1.  The
 * producer loads them into one ring (6 stages of 16 + 16 KiB) in the order of the walk.  Two named
 * barriers pass the turn: a consumer starts a tile's MMAs only after the other has issued all of
 * its previous tile's MMAs, and passes the turn on as soon as its own are issued, before it waits
 * for them and writes C, so one consumer's epilogue runs while the other's MMAs run.  A stage is
 * released by the 4 warps of one warpgroup.  The turn is also what makes the ring's parity waits
 * sound: a consumer skips the other's k tiles, and without the turn it could run two phases ahead
 * of a barrier and read an old phase as complete (measured: without the named barriers the
 * kernel failed at run time).
 *
 * Measured (H100 80GB HBM3, ratio to cuBLAS, step 13 in the same run in brackets; this step timed
 *   third, after cuBLAS and step 13, see step 17 on why the place matters): 4096^3 0.77
 *   (0.96), 8192^3 0.78 (1.00), 8192x8192x1024 0.74 (0.87), 1536x1536x16384 0.56 (0.75), 4097^3
 *   1.69x (2.05x); a second run: 12288^3 0.75 (1.01).  Slower at every large shape.  With (64,256)
 *   tiles per warpgroup (one m64n256k16 chain, 5 stages of 8 + 32 KiB) it was slower still: 0.75,
 *   0.63, 0.74 at the first three.  Why (ncu, 4096^3): step 13 takes 238 us, this step 281 us with
 *   the tensor pipe active 69% of the time (ncu locks the clocks, so this is not the power
 *   limit); the main stall reasons are the turn (barrier) and the mbarrier waits (wait).  Each warpgroup's tile is half of step 13's, so a k tile brings
 *   (128 + 128) x 64 x 2 = 32 KiB for 2 x 128 x 128 x 64 flops where step 13's brings 48 KiB for
 *   twice as many: a third more bytes per flop from L2 into shared memory, and each stage is
 *   consumed in half the time, so the ring covers half as much load latency.  Step 13's epilogue,
 *   which this step hides, is not worth that price at these shapes (cuBLAS also picks a
 *   cooperative (256,128) kernel there).  Where the ping-pong pays is elsewhere: on small problems
 *   its smaller tiles put twice as many SMs to work (timed fourth, after steps 12 and 13) --
 *   768^3 1.05 (step 12: 0.89), 1000^3 0.87 (0.74); step 17's launcher sends such problems here
 *   (hopper.cu, gh_best_path).
 *   Once there are more (128,128) tiles than SMs it loses again: 1536^3 0.50 (0.66).
 */
#include "hopper.h"
#include "tile_scheduler.h"
#include "labkit.h"

#define S16_BM 128
#define S16_BN 128
#define S16_STAGES 6
#define S16_STAGE_A (S16_BM * GH_BK * 2)        /* 16 KiB: A's two (64,64) boxes */
#define S16_STAGE_B (S16_BN * GH_BK * 2)        /* 16 KiB: one (64,128) box of B */
#define S16_SMEM (S16_STAGES * (S16_STAGE_A + S16_STAGE_B) + 2 * S16_STAGES * 8 + 1024)

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
/* named barriers 1 and 2: 128 threads wait (bar.sync), the other consumer's 128 arrive (bar.arrive) */
__device__ static inline void s16_turn_wait(int c)
{
  if (c == 0) asm volatile("bar.sync 1, 256;\n" ::: "memory");
  else asm volatile("bar.sync 2, 256;\n" ::: "memory");
}
__device__ static inline void s16_turn_pass(int c)
{
  if (c == 0) asm volatile("bar.arrive 2, 256;\n" ::: "memory");
  else asm volatile("bar.arrive 1, 256;\n" ::: "memory");
}

/* one k tile of the (128,128) tile: each (64,64) box of A times the stage's (64,128) box of B --
 * two independent accumulator chains, 64 registers each */
__device__ static inline void s16_mma_ktile(float acc[128], const uint8_t *sA, const uint8_t *sB)
{
  uint64_t da = gh_desc(sA, GH_BOX_A, 1024), db = gh_desc(sB, 16, 1024);
  gh_wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < GH_BK / 16; ++kk)
#pragma unroll
    for (int h = 0; h < 2; ++h)
      gh_wgmma_128(acc + 64 * h, gh_desc_add(da, h * GH_BOX_A + kk * 2048), gh_desc_add(db, kk * 32));
  gh_wgmma_commit();
}

/* the next tile of this CTA's walk that lies inside C, from walk index *i on (w.valid 0: none) */
__device__ static inline lts_work s16_next(const lts_params *sched, int *i)
{
  for (;;) {
    lts_work w = lts_work_at(sched, gridDim.z, blockIdx.x, blockIdx.y, blockIdx.z, (*i)++);
    if (!w.valid || (w.m < sched->tiles_m && w.n < sched->tiles_n)) return w;
  }
}
#endif

// ANCHOR: kernel
__global__ void __launch_bounds__(384, 1)
k16_pingpong(const __grid_constant__ CUtensorMap tA, const __grid_constant__ CUtensorMap tB, lts_params sched, int M,
             int N, int K, float alpha, float beta, float *C, int ldc, gh_timeline tl)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ uint8_t raw[];
  uint8_t *sa = (uint8_t *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023), *sb = sa + S16_STAGES * S16_STAGE_A;
  uint64_t *full = (uint64_t *)(sb + S16_STAGES * S16_STAGE_B), *empty = full + S16_STAGES;
  int tid = threadIdx.x, wg = tid / 128;
  int ktiles = (K + GH_BK - 1) / GH_BK;
  if (tid == 0) {
    gh_tma_prefetch_map(&tA);
    gh_tma_prefetch_map(&tB);
    for (int s = 0; s < S16_STAGES; ++s) { gh_bar_init(&full[s], 1); gh_bar_init(&empty[s], 4); }
    gh_fence_bar_init();
  }
  __syncthreads();
  gh_grid_wait();                                        // PDL: the launch ahead has ended, its writes visible
  gh_grid_release();                                     // the next launch may start its prologue
  int it = 0, i = 0;                                     // k tiles through the ring; walk index
  if (wg == 0) {                                         // the producer: every tile, in walk order
    GH_SETMAXNREG_DEC(40);
    if (tid == 0)
      for (lts_work w = s16_next(&sched, &i); w.valid; w = s16_next(&sched, &i))
        for (int kt = 0; kt < ktiles; ++kt, ++it) {
          int s = it % S16_STAGES;
          if (it >= S16_STAGES) gh_bar_wait(&empty[s], (it / S16_STAGES - 1) & 1);
          uint64_t *bar = &full[s];
          uint8_t *a = sa + s * S16_STAGE_A, *b = sb + s * S16_STAGE_B;
          gh_bar_expect(bar, S16_STAGE_A + S16_STAGE_B);
          gh_tma_load(a, &tA, bar, w.m * S16_BM, kt * GH_BK);
          gh_tma_load(a + GH_BOX_A, &tA, bar, w.m * S16_BM + 64, kt * GH_BK);
          gh_tma_load(b, &tB, bar, kt * GH_BK, w.n * S16_BN);
        }
  } else {                                               // the consumers: tile v of the walk is consumer v % 2's
    GH_SETMAXNREG_INC(232);
    int c = wg - 1;
    float acc[128];
    lts_work w = s16_next(&sched, &i);
    for (int v = 0; w.valid; ++v) {
      lts_work next = s16_next(&sched, &i);
      if (v % 2 != c) {                                  // the other consumer's tile: skip its k tiles
        it += ktiles;
        w = next;
        continue;
      }
      if (v > 0) s16_turn_wait(c);                       // the other has issued all MMAs of tile v - 1
      unsigned long long t0 = gh_now(&tl);               // the timeline's marks (off when timed)
      gh_zero_acc(acc);
      gh_fence_acc(acc);
      for (int kt = 0; kt < ktiles; ++kt, ++it) {
        int s = it % S16_STAGES;
        gh_bar_wait(&full[s], (it / S16_STAGES) & 1);
        s16_mma_ktile(acc, sa + s * S16_STAGE_A, sb + s * S16_STAGE_B);
        GH_WGMMA_WAIT(1);
        if (kt > 0 && tid % 32 == 0) gh_bar_arrive(&empty[(it - 1) % S16_STAGES]);
      }
      if (next.valid) s16_turn_pass(c);                  // tile v + 1 may start its MMAs
      GH_WGMMA_WAIT(0);
      gh_fence_acc(acc);
      if (tid % 32 == 0) gh_bar_arrive(&empty[(it - 1) % S16_STAGES]);
      unsigned long long t1 = gh_now(&tl);
      gh_epilogue_cols(acc, 16, w.m * S16_BM, w.n * S16_BN, M, N, alpha, beta, C, ldc);
      gh_epilogue_cols(acc + 64, 16, w.m * S16_BM + 64, w.n * S16_BN, M, N, alpha, beta, C, ldc);
      gh_mark_unit(&tl, c, w.m, w.n, 0, ktiles, 0, t0, t1, t1);
      w = next;
    }
  }
#endif
}
// ANCHOR_END: kernel

void gemm_16_pingpong(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                      float *C, int ldc)
{
  gh_operands op;
  if (!gh_prepare(M, N, K, A, lda, B, ldb, &op)) {
    gh_fallback(&op, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  static int ready;
  if (!ready) {
    LK_CHECK(cudaFuncSetAttribute(k16_pingpong, cudaFuncAttributeMaxDynamicSharedMemorySize, S16_SMEM));
    ready = 1;
  }
  dim3 grid;
  lts_params sched = gh_persistent_schedule(M, N, S16_BM, S16_BN, "gemm_16_pingpong", &grid);   // hopper.cu
  cudaLaunchConfig_t cfg;
  cudaLaunchAttribute attr[2];
  gh_launch_config(&cfg, attr, grid, 384, S16_SMEM, 1);
  LK_CHECK(cudaLaunchKernelEx(&cfg, k16_pingpong, op.a, op.b, sched, M, N, K, alpha, beta, C, ldc, gh_tl));
  LK_CHECK(cudaGetLastError());
}
