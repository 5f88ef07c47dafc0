/* Step 14 -- clusters of 2 CTAs that share B: each loads half of the B tile and multicasts it to both.
 *
 * What changes from step 13: the persistent CTAs come in clusters of (2,1): the two CTAs of a
 * cluster compute vertically adjacent tiles (2c, n) and (2c+1, n) -- the scheduler counts work in
 * clusters, as CuTe's does -- so they need the same (64,256) B slice at every k tile.  CTA r loads
 * only B's box r (64 k, 128 n) and the TMA multicast writes it into the same place of both CTAs'
 * shared memory, completing on both CTAs' `full` barriers: B's traffic from L2 halves.
 * The price is coupling: a stage may be refilled only when the consumers of *both* CTAs are done
 * with it (the peer writes into my stage), so every consumer warp arrives on the `empty` barrier
 * of both CTAs (mapa + a cluster-scope arrive; 16 arrivals per phase).  The cluster's CTAs start
 * after a cluster barrier (the peer's barriers are initialised) and end with one (no arrival may
 * reach a CTA that has left).  When the tile count along m is odd, the second CTA of the last
 * cluster row works on a tile past M: it still loads and multicasts its half of B, reads zeros for
 * A, and its epilogue writes nothing.
 * Measured: see the runner's bench lines and figures/data/gemm.csv (H200): MEASURED_14
 */
#include "hopper.h"
#include "tile_scheduler.h"
#include "labkit.h"

#define S14_STAGES 4
#include <stdlib.h>

/* EXPERIMENT: arrive modes and load modes */
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
__device__ static __forceinline__ void k14_arrive_remote_cta(uint64_t *bar, uint32_t cta)
{
  asm volatile("{\n .reg .b32 ra;\n mapa.shared::cluster.u32 ra, %0, %1;\n"
               " mbarrier.arrive.shared::cluster.b64 _, [ra];\n}\n" :: "r"(gh_smem(bar)), "r"(cta) : "memory");
}
__device__ static __forceinline__ void k14_arrive_relaxed(uint64_t *bar, uint32_t cta)
{
  asm volatile("{\n .reg .b32 ra;\n mapa.shared::cluster.u32 ra, %0, %1;\n"
               " mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [ra];\n}\n" :: "r"(gh_smem(bar)), "r"(cta) : "memory");
}
/* amode: 0 release.cluster both per warp (16); 1 default-sem remote both per warp (16); 2 local own + default remote
 * peer per warp (16); 3 per warpgroup: warp 0 local, warp 1 remote default (4); 4 as 3 with release.cluster remote (4)
 * 5: local only per warp (8) */
__device__ static __forceinline__ void k14_release(uint64_t *bar, int tid, uint32_t rank, const int amode)
{
  if (amode <= 2) {
    if (tid % 32 == 0) {
      if (amode == 0) { gh_bar_arrive_cluster(bar, 0); gh_bar_arrive_cluster(bar, 1); }
      else if (amode == 1) { k14_arrive_remote_cta(bar, 0); k14_arrive_remote_cta(bar, 1); }
      else { gh_bar_arrive(bar); k14_arrive_remote_cta(bar, rank ^ 1); }
    }
  } else if (amode <= 4) {
    if (tid % 128 == 0) gh_bar_arrive(bar);
    else if (tid % 128 == 32) { if (amode == 3) k14_arrive_remote_cta(bar, rank ^ 1); else gh_bar_arrive_cluster(bar, rank ^ 1); }
  } else if (amode == 5) {
    if (tid % 32 == 0) gh_bar_arrive(bar);
  } else if (amode == 6) {
    if (tid % 32 == 0) { k14_arrive_relaxed(bar, 0); k14_arrive_relaxed(bar, 1); }
  } else if (amode == 7) {
    if (tid % 32 == 0) { gh_bar_arrive(bar); k14_arrive_relaxed(bar, rank ^ 1); }
  } else if (amode == 8) {
    if (tid % 32 < 2) k14_arrive_relaxed(bar, tid % 32);
  } else {
    if (tid % 128 < 2) k14_arrive_remote_cta(bar, tid % 128);
  }
}

#endif
/* mmode: 1 multicast halves of B; 0 whole B locally (still coupled); */
__device__ static __forceinline__ void
k14_body(const CUtensorMap *tA, const CUtensorMap *tB, const lts_params *schedp, int M, int N, int K, float alpha,
         float beta, float *C, int ldc, const int amode, const int mmode)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  lts_params sched = *schedp;
  extern __shared__ uint8_t raw[];
  gh_smem_plan p = gh_plan(raw, S14_STAGES);
  int tid = threadIdx.x, wg = tid / 128;
  uint32_t rank = gh_cluster_rank();
  int ktiles = (K + GH_BK - 1) / GH_BK;
  int ecount = (amode <= 2 || (amode >= 6 && amode <= 8)) ? 16 : (amode <= 4 || amode == 9) ? 4 : 8;
  if (tid == 0) {
    gh_tma_prefetch_map(tA);
    gh_tma_prefetch_map(tB);
    for (int s = 0; s < S14_STAGES; ++s) { gh_bar_init(&p.full[s], 1); gh_bar_init(&p.empty[s], ecount); }
    gh_fence_bar_init();
  }
  gh_cluster_sync();
  int it = 0;
  if (wg == 0) {
    GH_SETMAXNREG_DEC(40);
    if (tid == 0)
      for (int i = 0;; ++i) {
        lts_work w = lts_work_at(&sched, gridDim.z, blockIdx.x, blockIdx.y, blockIdx.z, i);
        if (!w.valid) break;
        if (w.m - (int)rank >= sched.tiles_m || w.n >= sched.tiles_n) continue;
        for (int kt = 0; kt < ktiles; ++kt, ++it) {
          int s = it % S14_STAGES;
          if (it >= S14_STAGES) gh_bar_wait(&p.empty[s], (it / S14_STAGES - 1) & 1);
          uint64_t *bar = &p.full[s];
          uint8_t *a = p.a + s * GH_STAGE_A, *b = p.b + s * GH_STAGE_B;
          gh_bar_expect(bar, GH_STAGE_A + GH_STAGE_B);
          gh_tma_load(a, tA, bar, w.m * GH_BM, kt * GH_BK);
          gh_tma_load(a + GH_BOX_A, tA, bar, w.m * GH_BM + 64, kt * GH_BK);
          if (mmode == 1)
            gh_tma_load_multicast(b + rank * GH_BOX_B, tB, bar, kt * GH_BK, w.n * GH_BN + 128 * (int)rank, 0x3);
          else {
            gh_tma_load(b, tB, bar, kt * GH_BK, w.n * GH_BN);
            gh_tma_load(b + GH_BOX_B, tB, bar, kt * GH_BK, w.n * GH_BN + 128);
          }
        }
      }
  } else {
    GH_SETMAXNREG_INC(232);
    int c = wg - 1;
    float acc[128];
    for (int i = 0;; ++i) {
      lts_work w = lts_work_at(&sched, gridDim.z, blockIdx.x, blockIdx.y, blockIdx.z, i);
      if (!w.valid) break;
      if (w.m - (int)rank >= sched.tiles_m || w.n >= sched.tiles_n) continue;
      gh_zero_acc(acc);
      gh_fence_acc(acc);
      for (int kt = 0; kt < ktiles; ++kt, ++it) {
        int s = it % S14_STAGES;
        gh_bar_wait(&p.full[s], (it / S14_STAGES) & 1);
        gh_mma_ktile(acc, p.a + s * GH_STAGE_A, p.b + s * GH_STAGE_B, c);
        GH_WGMMA_WAIT(1);
        if (kt > 0) k14_release(&p.empty[(it - 1) % S14_STAGES], tid, rank, amode);
      }
      GH_WGMMA_WAIT(0);
      gh_fence_acc(acc);
      k14_release(&p.empty[(it - 1) % S14_STAGES], tid, rank, amode);
      gh_epilogue(acc, w.m * GH_BM + 64 * c, w.n * GH_BN, M, N, alpha, beta, C, ldc);
    }
  }
  gh_cluster_sync();
#endif
}

#define K14_VARIANT(name, amode, mmode)                                                                            \
  __global__ void __launch_bounds__(384, 1)                                                                        \
  name(const __grid_constant__ CUtensorMap tA, const __grid_constant__ CUtensorMap tB, lts_params sched, int M,    \
       int N, int K, float alpha, float beta, float *C, int ldc)                                                   \
  {                                                                                                                \
    k14_body(&tA, &tB, &sched, M, N, K, alpha, beta, C, ldc, amode, mmode);                                       \
  }
K14_VARIANT(k14_v0, 0, 1)
K14_VARIANT(k14_v1, 1, 1)
K14_VARIANT(k14_v2, 2, 1)
K14_VARIANT(k14_v3, 3, 1)
K14_VARIANT(k14_v4, 0, 0)
K14_VARIANT(k14_v5, 2, 0)
K14_VARIANT(k14_v6, 5, 0)
K14_VARIANT(k14_v7, 4, 1)
K14_VARIANT(k14_v8, 6, 1)
K14_VARIANT(k14_v9, 7, 1)
K14_VARIANT(k14_v10, 8, 1)
K14_VARIANT(k14_v11, 9, 1)
typedef void (*k14_fn)(const CUtensorMap, const CUtensorMap, lts_params, int, int, int, float, float, float *, int);
static k14_fn k14_variants[12] = { k14_v0, k14_v1, k14_v2, k14_v3, k14_v4, k14_v5, k14_v6, k14_v7, k14_v8, k14_v9, k14_v10, k14_v11 };
// ANCHOR_END: kernel

void gemm_14_cluster_multicast(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb,
                               float beta, float *C, int ldc)
{
  gh_operands op;
  if (!gh_prepare(M, N, K, A, lda, B, ldb, &op)) {
    gh_fallback(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  const char *ve = getenv("K14_VARIANT");
  int var = ve ? atoi(ve) : 0;
  k14_fn k14_cluster_multicast = k14_variants[var];
  static int actives[12];
  int active = actives[var];
  if (!active) {
    LK_CHECK(cudaFuncSetAttribute(k14_cluster_multicast, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  GH_SMEM(S14_STAGES)));
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = 2; attr.val.clusterDim.y = 1; attr.val.clusterDim.z = 1;
    cfg.gridDim = dim3(2, 1, 1);
    cfg.blockDim = dim3(384, 1, 1);
    cfg.dynamicSmemBytes = GH_SMEM(S14_STAGES);
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    LK_CHECK(cudaOccupancyMaxActiveClusters(&active, k14_cluster_multicast, &cfg));
    if (active < 1) { fprintf(stderr, "gemm_14_cluster_multicast: no cluster of 2 fits on this GPU\n"); exit(1); }
    gh_clusters_resident = active;
    actives[var] = active;
  }
  lts_params sched;
  const char *err;
  if (!lts_init(&sched, (M + GH_BM - 1) / GH_BM, (N + GH_BN - 1) / GH_BN, 1, 2, 1, gh_swizzle, gh_raster_m, &err)) {
    fprintf(stderr, "gemm_14_cluster_multicast: %s\n", err);
    exit(1);
  }
  int gx, gy, gz;
  lts_grid(&sched, active, &gx, &gy, &gz);               // (2, 1, P): P clusters of 2
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeClusterDimension;          // clusters of (2,1,1) CTAs
  attr.val.clusterDim.x = 2; attr.val.clusterDim.y = 1; attr.val.clusterDim.z = 1;
  cfg.gridDim = dim3(gx, gy, gz);
  cfg.blockDim = dim3(384, 1, 1);
  cfg.dynamicSmemBytes = GH_SMEM(S14_STAGES);
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  LK_CHECK(cudaLaunchKernelEx(&cfg, k14_cluster_multicast, op.a, op.b, sched, M, N, K, alpha, beta, C, ldc));
  LK_CHECK(cudaGetLastError());
}
