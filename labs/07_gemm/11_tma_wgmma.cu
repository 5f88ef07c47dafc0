/* Step 11 -- TMA loads into a 4-stage ring of mbarriers, wgmma from 128-byte-swizzled shared memory.
 *
 * What changes from step 9 (mma.sync): the two halves of the work move to Hopper's own engines.
 *   - Loads: one thread issues, per k tile, four TMA copies (A: two (64,64) boxes, B: two (64,128)
 *     boxes) that land swizzled in a stage and count their 48 KiB on the stage's `full` mbarrier.
 *     No thread computes an address per element, and no edge test: TMA fills what lies outside
 *     the matrix with zeros.
 *   - MMAs: each of the two warpgroups issues four wgmma m64n256k16 per k tile, straight from
 *     shared memory (no ldmatrix, no fragments in registers): 128 fp32 accumulators per thread.
 *   - A ring of 4 stages: stage s is refilled only after all 8 warps have arrived on its `empty`
 *     barrier, i.e. after the MMAs that read it have completed.  Each warpgroup waits for all its
 *     MMAs of the k tile (wgmma.wait_group 0) before it releases the stage; warp 0 then refills.
 * Tried and not kept: releasing the previous stage after wgmma.wait_group 1 (one k tile of MMAs
 * in flight) with warp 0 refilling in between: ptxas (note C7518) serialized every wgmma of the
 * kernel, because accumulator registers were live across a branch only one warp takes.
 * Not yet: the thread that issues the loads is also a consumer, so it waits for the slower
 * warpgroup before refilling (step 12 gives the loads a warpgroup of their own); a CTA computes one
 * tile and leaves, its epilogue not overlapped with anything (step 13).
 * Registers: see `make test` (77_gemm_host.sh); no spills, no stack frame.  One CTA (256 threads,
 * 193 KiB of shared memory) per SM.
 * Measured (H200, the run recorded on 2026-11-22, versions timed one after another):
 *   0.933 of cuBLAS at 4096^3, 0.932 at 8192^3; 2.98x at
 *   4095^3, 2.43x at 4097^3 (padded copies); 0.49 at 1000^3 (step 9: 0.31).
 */
#include "hopper.h"
#include "labkit.h"

#define S11_STAGES 4

// ANCHOR: kernel
__global__ void __launch_bounds__(256, 1)
k11_tma_wgmma(const __grid_constant__ CUtensorMap tA, const __grid_constant__ CUtensorMap tB, int M, int N, int K,
              float alpha, float beta, float *C, int ldc)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ uint8_t raw[];
  gh_smem_plan p = gh_plan(raw, S11_STAGES);
  int tid = threadIdx.x, wg = tid / 128;
  int tm = blockIdx.x, tn = blockIdx.y;                  // local_tile(mC, (_128,_256), (tm,tn))
  int ktiles = (K + GH_BK - 1) / GH_BK;
  if (tid == 0) {
    gh_tma_prefetch_map(&tA);
    gh_tma_prefetch_map(&tB);
    for (int s = 0; s < S11_STAGES; ++s) { gh_bar_init(&p.full[s], 1); gh_bar_init(&p.empty[s], 8); }
    gh_fence_bar_init();
  }
  __syncthreads();
  if (tid == 0)                                         // the prologue: the ring's S k tiles in flight
    for (int kt = 0; kt < S11_STAGES && kt < ktiles; ++kt) gh_load_ktile(&p, kt, &tA, &tB, tm, tn, kt);

  float acc[128];
  gh_zero_acc(acc);
  gh_fence_acc(acc);
  for (int kt = 0; kt < ktiles; ++kt) {
    int s = kt % S11_STAGES;
    gh_bar_wait(&p.full[s], (kt / S11_STAGES) & 1);       // the stage's 48 KiB have landed
    gh_mma_ktile(acc, p.a + s * GH_STAGE_A, p.b + s * GH_STAGE_B, wg);
    GH_WGMMA_WAIT(0);                                    // this k tile's MMAs are done ...
    gh_fence_acc(acc);
    if (tid % 32 == 0) gh_bar_arrive(&p.empty[s]);       // ... so its stage may be refilled
    int next = kt + S11_STAGES;                          // with k tile kt + S
    if (tid / 32 == 0 && next < ktiles) {                // warp 0 waits for all 8 warps, one lane issues
      gh_bar_wait(&p.empty[s], (kt / S11_STAGES) & 1);
      if (gh_elect_one()) gh_load_ktile(&p, s, &tA, &tB, tm, tn, next);
    }
  }
  GH_WGMMA_WAIT(0);
  gh_fence_acc(acc);
  gh_epilogue(acc, tm * GH_BM + 64 * wg, tn * GH_BN, M, N, alpha, beta, C, ldc);
#endif
}
// ANCHOR_END: kernel

void gemm_11_tma_wgmma(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                       float *C, int ldc)
{
  gh_operands op;
  if (!gh_prepare(M, N, K, A, lda, B, ldb, &op)) {
    gh_fallback(&op, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  static int ready;
  if (!ready) {
    LK_CHECK(cudaFuncSetAttribute(k11_tma_wgmma, cudaFuncAttributeMaxDynamicSharedMemorySize, GH_SMEM(S11_STAGES)));
    ready = 1;
  }
  dim3 grid((M + GH_BM - 1) / GH_BM, (N + GH_BN - 1) / GH_BN);
  k11_tma_wgmma<<<grid, 256, GH_SMEM(S11_STAGES)>>>(op.a, op.b, M, N, K, alpha, beta, C, ldc);
  LK_CHECK(cudaGetLastError());
}
