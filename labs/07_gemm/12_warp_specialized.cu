/* Step 12 -- warp specialization: a producer warpgroup issues the loads, two consumer warpgroups
 * issue the MMAs, and setmaxnreg moves registers from the first to the others.
 *
 * What changes from step 11: a third warpgroup (384 threads).  One thread of it walks the k tiles,
 * waits for a stage's `empty` barrier and refills it; it never waits for an MMA of its own, so the
 * ring stays full while the consumers compute.  The consumers only wait for `full` and release
 * `empty`.  The producer needs few registers and gives them back (setmaxnreg.dec to 40); the
 * consumers take them (setmaxnreg.inc to 232): 128 x 40 + 256 x 232 = 64,512 of the SM's 65,536.
 * The ring stays at 4 stages: a fifth (5 x 48 KiB = 240 KiB) does not fit in the 227 KiB of shared
 * memory a CTA may have.
 * Not yet: a CTA still computes one tile; its epilogue leaves the tensor cores idle (step 13).
 * Measured (H200, the run recorded on 2026-11-22, versions timed one after another):
 *   0.865 of cuBLAS at 4096^3, 0.874 at
 *   8192^3 (an earlier run: 0.911, 0.913) -- not faster than step 11, and why it is slower we have
 *   not pinned down; 3.03x at 4095^3, 2.44x at 4097^3.
 */
#include "hopper.h"
#include "labkit.h"

#define S12_STAGES 4

// ANCHOR: kernel
__global__ void __launch_bounds__(384, 1)
k12_warp_specialized(const __grid_constant__ CUtensorMap tA, const __grid_constant__ CUtensorMap tB, int M, int N,
                     int K, float alpha, float beta, float *C, int ldc, gh_timeline tl)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ uint8_t raw[];
  gh_smem_plan p = gh_plan(raw, S12_STAGES);
  int tid = threadIdx.x, wg = tid / 128;
  int tm = blockIdx.x, tn = blockIdx.y;
  int ktiles = (K + GH_BK - 1) / GH_BK;
  if (tid == 0) {
    gh_tma_prefetch_map(&tA);
    gh_tma_prefetch_map(&tB);
    for (int s = 0; s < S12_STAGES; ++s) { gh_bar_init(&p.full[s], 1); gh_bar_init(&p.empty[s], 8); }
    gh_fence_bar_init();
  }
  __syncthreads();
  gh_grid_wait();                                        // PDL: the launch ahead has ended, its writes visible
  gh_grid_release();                                     // the next launch may start its prologue
  if (wg == 0) {                                         // the producer warpgroup
    GH_SETMAXNREG_DEC(40);
    if (tid == 0)
      for (int kt = 0; kt < ktiles; ++kt) {
        int s = kt % S12_STAGES;
        if (kt >= S12_STAGES) gh_bar_wait(&p.empty[s], (kt / S12_STAGES - 1) & 1);
        gh_load_ktile(&p, s, &tA, &tB, tm, tn, kt);
      }
  } else {                                               // the consumer warpgroups 1 and 2
    GH_SETMAXNREG_INC(232);
    int c = wg - 1;
    float acc[128];
    unsigned long long t0 = gh_now(&tl);                 // the timeline's marks (off when timed)
    gh_zero_acc(acc);
    gh_fence_acc(acc);
    for (int kt = 0; kt < ktiles; ++kt) {
      int s = kt % S12_STAGES;
      gh_bar_wait(&p.full[s], (kt / S12_STAGES) & 1);
      gh_mma_ktile(acc, p.a + s * GH_STAGE_A, p.b + s * GH_STAGE_B, c);
      GH_WGMMA_WAIT(1);
      if (kt > 0 && tid % 32 == 0) gh_bar_arrive(&p.empty[(kt - 1) % S12_STAGES]);
    }
    GH_WGMMA_WAIT(0);
    gh_fence_acc(acc);
    unsigned long long t1 = gh_now(&tl);
    gh_epilogue(acc, tm * GH_BM + 64 * c, tn * GH_BN, M, N, alpha, beta, C, ldc);
    gh_mark_unit(&tl, c, tm, tn, 0, ktiles, 0, t0, t1, t1);
  }
#endif
}
// ANCHOR_END: kernel

void gemm_12_warp_specialized(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb,
                              float beta, float *C, int ldc)
{
  gh_operands op;
  if (!gh_prepare(M, N, K, A, lda, B, ldb, &op)) {
    gh_fallback(&op, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  static int ready;
  if (!ready) {
    LK_CHECK(cudaFuncSetAttribute(k12_warp_specialized, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  GH_SMEM(S12_STAGES)));
    ready = 1;
  }
  dim3 grid((M + GH_BM - 1) / GH_BM, (N + GH_BN - 1) / GH_BN);
  cudaLaunchConfig_t cfg;
  cudaLaunchAttribute attr[2];
  gh_launch_config(&cfg, attr, grid, 384, GH_SMEM(S12_STAGES), 1);
  LK_CHECK(cudaLaunchKernelEx(&cfg, k12_warp_specialized, op.a, op.b, M, N, K, alpha, beta, C, ldc, gh_tl));
  LK_CHECK(cudaGetLastError());
}
