/* Step 20 -- small tiles for small problems: (64,128) tiles, one a CTA, the whole k loop, no fix-up.
 *
 * What changes from step 19: where a problem has few (128,128) tiles, step 19 cuts each tile's k
 * loop between CTAs and pays for adding the parts up (2-4 us of a 10-14 us call at 1000^3).  Here
 * the tiles are smaller instead: (64,128), four times as many as (128,256) tiles, so a problem that
 * fills the SMs with them needs no split and no fix-up.  A CTA is one producer warpgroup and one
 * consumer warpgroup, which runs the whole k loop of its tile into 64 accumulators per thread (one
 * m64n128k16 chain, as a consumer of step 19) and writes C -- from shared memory by TMA stores
 * where C allows them (the stages are free once the k loop is done), else from its registers.
 * Smaller tiles read more per MMA: a (64,128) tile takes in 24 KiB per k tile for 64 x 128
 * outputs, a (128,128) tile 32 KiB for twice as many, and what an SM takes in, about 50 bytes a
 * cycle, bounds both (step 19's parts and these tiles ran at 82 and 96 GB/s per SM).  So a tile's
 * k loop costs more per k tile than step 19's cut in two (0.26 against 0.20 us); the fix-up and the
 * longer start it saves are worth about 40 k tiles against 2 parts, 29 against 3.
 * Rows that straddle cache lines.  Where a column of A or B does not start on a 128-byte line
 * (1000^3: 2000-byte columns), every 128-byte row of a box touches two lines, and the L2 serves
 * twice the requests.  There the CTAs come in clusters of (2,1), as in step 14: the two CTAs of a
 * cluster compute tiles (2c, n) and (2c + 1, n), which need the same (64 k, 128 n) slice of B; CTA
 * r loads its half, the (64,64) box r, and the TMA multicast writes it into both CTAs' stages, so
 * the L2 serves B once for two tiles.  A stage is refilled only when the consumers of both CTAs
 * are done with it: each consumer warp arrives on its own CTA's `empty` barrier and on the peer's
 * (8 arrivals per phase), with step 14's relaxed remote arrive.  When the tile count along m is
 * odd, the second CTA of the last cluster works on a tile past M: it loads and multicasts its half
 * of B, reads zeros for A, and writes nothing.  Where the rows lie on lines, the clusters cost
 * more than they save, and each CTA loads its whole B slice (two (64,64) boxes).
 * The grid is one CTA per tile (rounded up to whole clusters where there are clusters), not
 * persistent; the best path (gh_best_path in hopper.cu) sends a problem here where the tiles fit
 * on the SMs at once and step 20's estimate, 0.35 k + 6, is below the other whole-tile routes'.
 *
 * Measured (H100 80GB HBM3, us, each a median of timed windows, two runs; every launch with PDL):
 *   step 19 against step 20: 512^3 6.2 -> 4.5, 640^3 6.6 -> 5.1, 768^3 8.1 -> 5.9, 896^3 8.0 -> 6.6,
 *   1000^3 11.2 -> 10.1, 1024^3 8.5 -> 7.1, 1024x1024x256 8.0 -> 4.3, 1280x768x1024 8.4 -> 7.1,
 *   2000x500x1000 10.3 -> 9.5, 700x800x1000 14.2 -> 12.8, 1024x1024x2048 11.5 -> 11.3;
 *   1000x1000x2000 15.3 -> 15.7 (the estimates are close there; the best path takes step 20).
 *   Clusters against none, the same kernel: with 128-byte rows, clusters were slower everywhere
 *   (512^3 5.5 against 4.6, 768^3 7.2 against 5.8, 1024^3 8.5 against 7.1, 1024x1024x2048 12.6
 *   against 11.2); with 2000-byte rows faster (1000^3 10.2 against 11.5, 2000x500x1000 9.5 against
 *   10.6, 1000x1000x2000 15.8 against 16.5), but not at 700x800x1000 (1400- and 2000-byte rows,
 *   84 CTAs: 12.8 against 11.9), which keeps the clusters by the rule.
 *   On the GPU alone (07_gemm --launch-cost), the best path against cuBLAS's kernels: 512^3 4.8
 *   against 4.3, 768^3 6.1 against 5.2, 1000^3 10.2 against 9.1, 1024^3 7.3 against 6.8 (before
 *   step 20 and PDL: 8.0, 9.9, 12.6, 9.8). */
#include "hopper.h"
#include "labkit.h"

#define S20_BM 64
#define S20_BN 128
#define S20_STAGES 8
#define S20_STAGE_A (S20_BM * GH_BK * 2)        /*  8 KiB: one (64,64) box of A */
#define S20_STAGE_B (S20_BN * GH_BK * 2)        /* 16 KiB: two (64 k, 64 n) boxes of B, one from each CTA */
#define S20_SMEM (S20_STAGES * (S20_STAGE_A + S20_STAGE_B) + 2 * S20_STAGES * 8 + 1024)

// ANCHOR: kernel
__global__ void __launch_bounds__(256, 1)
k20_small_tiles(const __grid_constant__ CUtensorMap tA, const __grid_constant__ CUtensorMap tB,
                const __grid_constant__ CUtensorMap tC, int tma_c, int M, int N, int K, float alpha, float beta,
                float *C, int ldc, int pair)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ uint8_t raw[];
  uint8_t *sa = (uint8_t *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023), *sb = sa + S20_STAGES * S20_STAGE_A;
  uint64_t *full = (uint64_t *)(sb + S20_STAGES * S20_STAGE_B), *empty = full + S20_STAGES;
  int tid = threadIdx.x, wg = tid / 128;
  uint32_t rank = pair ? gh_cluster_rank() : 0;          // 0 or 1: blockIdx.x % 2
  int tm = blockIdx.x, tn = blockIdx.y;                  // local_tile(mC, (_64,_128), (tm,tn))
  int ktiles = (K + GH_BK - 1) / GH_BK;
  if (tid == 0) {
    gh_tma_prefetch_map(&tA);
    gh_tma_prefetch_map(&tB);
    if (tma_c) gh_tma_prefetch_map(&tC);
    for (int s = 0; s < S20_STAGES; ++s) { gh_bar_init(&full[s], 1); gh_bar_init(&empty[s], pair ? 8 : 4); }
    gh_fence_bar_init();
  }
  if (pair) gh_cluster_sync();                           // the peer's barriers are ready
  else __syncthreads();
  gh_grid_wait();                                        // PDL: the launch ahead has ended
  gh_grid_release();
  if (wg == 0) {                                         // the producer
    if (tid == 0)
      for (int kt = 0; kt < ktiles; ++kt) {
        int s = kt % S20_STAGES;
        if (kt >= S20_STAGES) gh_bar_wait(&empty[s], (kt / S20_STAGES - 1) & 1);
        uint8_t *a = sa + s * S20_STAGE_A, *b = sb + s * S20_STAGE_B;
        gh_bar_expect(&full[s], S20_STAGE_A + S20_STAGE_B);   // my A, my half of B, the peer's half
        gh_tma_load(a, &tA, &full[s], tm * S20_BM, kt * GH_BK);
        if (pair)
          gh_tma_load_multicast(b + rank * (S20_STAGE_B / 2), &tB, &full[s], kt * GH_BK, tn * S20_BN + 64 * (int)rank,
                                0x3);
        else {
          gh_tma_load(b, &tB, &full[s], kt * GH_BK, tn * S20_BN);
          gh_tma_load(b + S20_STAGE_B / 2, &tB, &full[s], kt * GH_BK, tn * S20_BN + 64);
        }
      }
  } else {                                               // the consumer: the whole k loop of the tile
    float acc[64];
#pragma unroll
    for (int j = 0; j < 64; ++j) acc[j] = 0.0f;
    gh_fence_acc64(acc);
    uint64_t da = gh_desc(sa, GH_BOX_A, 1024), db = gh_desc(sb, 16, 1024);   // stage 0's
    for (int kt = 0; kt < ktiles; ++kt) {
      int s = kt % S20_STAGES;
      gh_bar_wait(&full[s], (kt / S20_STAGES) & 1);
      gh_wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < GH_BK / 16; ++kk)
        gh_wgmma_128(acc, gh_desc_add(da, s * S20_STAGE_A + kk * 2048),
                     gh_desc_add(db, s * S20_STAGE_B + kk * 32));
      gh_wgmma_commit();
      GH_WGMMA_WAIT(1);
      if (kt > 0) {
        if (pair) gh_release_pair(&empty[(kt - 1) % S20_STAGES], rank);   // in both CTAs
        else if (tid % 32 == 0) gh_bar_arrive(&empty[(kt - 1) % S20_STAGES]);
      }
    }
    GH_WGMMA_WAIT(0);
    gh_fence_acc64(acc);
    if (tm * S20_BM < M) {                               // the tile past M (odd tiles_m) writes nothing
      if (tma_c) gh_epilogue_tma_whole(acc, 4, sa, &tC, 0, tm * S20_BM, tn * S20_BN, alpha);
      else gh_epilogue_cols(acc, 16, tm * S20_BM, tn * S20_BN, M, N, alpha, beta, C, ldc);
    }
  }
  if (pair) gh_cluster_sync();                           // no remote arrive reaches a CTA that has left
#endif
}
// ANCHOR_END: kernel

void gemm_20_small_tiles(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                         float *C, int ldc)
{
  int tiles_m = (M + S20_BM - 1) / S20_BM, tiles_n = (N + S20_BN - 1) / S20_BN;
  if (tiles_n > 65535) {                                 // more than a grid's y holds: the best path
    gemm_17_tma_store(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  gh_operands op;
  if (!gh_prepare_box(M, N, K, A, lda, B, ldb, &op, 64)) {   // B in (64 k, 64 n) boxes: the halves
    gh_fallback(&op, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  static int ready;
  if (!ready) {
    LK_CHECK(cudaFuncSetAttribute(k20_small_tiles, cudaFuncAttributeMaxDynamicSharedMemorySize, S20_SMEM));
    ready = 1;
  }
  CUtensorMap tC = { { 0 } };
  int tma_c = gh_tma_c(&tC, M, N, 0, beta, C, ldc);     // staged in the free stages, as step 19's owner
  cudaLaunchConfig_t cfg;
  cudaLaunchAttribute attr[2];
  int pair = !op.rows128;                                // B multicast where rows straddle lines
  gh_launch_config(&cfg, attr, dim3(pair ? (unsigned)(tiles_m + 1) / 2 * 2 : (unsigned)tiles_m, (unsigned)tiles_n), 256,
                   S20_SMEM, pair ? 2 : 1);
  LK_CHECK(cudaLaunchKernelEx(&cfg, k20_small_tiles, op.a, op.b, tC, tma_c, M, N, K, alpha, beta, C, ldc, pair));
  LK_CHECK(cudaGetLastError());
}
