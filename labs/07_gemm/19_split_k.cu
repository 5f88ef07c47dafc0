/* Step 19 -- split-K for small problems: each (128,128) tile's k loop cut between 2 to 16 CTAs.
 *
 * What changes from step 16: a problem whose (128,128) tiles fit on the SMs at once -- 1000^3 is 64
 * tiles for 132 SMs -- runs one tile per CTA there, and half the SMs or more do nothing.  Here the k
 * loop of every tile is cut into `splits` equal parts, one CTA each, so T x splits CTAs run at once
 * (never more than the SMs).  Each CTA is one producer warpgroup and two consumers, which share the
 * tile as in step 13: consumer c computes rows 64c..64c+63, one m64n128k16 chain of 64 accumulators
 * (so both warpgroups' epilogues and fix-ups run side by side).  The parts are added as in step 15:
 * part p < splits - 1 leaves its partial sums in workspace slot `cta` (64 KiB, thread-fastest) and
 * raises its flag with the launch's epoch; the last part, which holds the tile's last k tile, owns
 * the tile: it waits for the parts before it in descending k, adds them, and writes C.  The order of
 * the sums is fixed, so the result does not depend on timing.  All CTAs are resident (one per SM,
 * at most as many as SMs), and no part waits but the owner, so the waits cannot cycle.
 *
 * The number of parts, and whether to split at all, is the launcher's rule (gh_split_parts in
 * hopper.cu: at most as many parts as the SMs hold, 16, and each of at least 4 k tiles, and within
 * those the count that makes the estimate 0.55 k / s + (s - 1) least); step 17's
 * launcher sends a problem here where (128,128) tiles fit on the SMs at once and there are two
 * parts or more, and where the estimates of gh_estimates do not prefer Stream-K.
 *
 * Measured (H100 80GB HBM3, best path against cuBLAS in one run; step 16 in brackets):
 *   1024x1024x4096 0.85 (0.55), 1024x1024x8192 0.80 (0.49), 384x384x8192 0.87 (0.33), 896^3 1.11
 *   (0.94), 768^3 1.11 (0.99), 512^3 1.38 (1.22), 700x900x3000 1.30 (1.13), 2000x500x1000 0.97
 *   (0.94), 1000^3 0.88 (0.87).  Forcing 1 to 4 parts at 9 small shapes (three runs), the split
 *   was never slower than step 16 where each part had 4 k tiles or more, and more parts paid
 *   most where K is long (384x384x8192: 1.5x, 2.2x, 2.4x step 16 with 2, 3, 4 parts).
 * More parts, by the estimate, up to 16 (the first rule stopped at 4).  Step 19 against cuBLAS,
 *   medians of three runs each, the first rule's parts and ratio, then this rule's (H100): 128x128x65536
 *   4 0.13, 16 0.42; 256x256x16384 4 0.39, 12 0.73; 384x384x8192 4 0.77, 8 0.84; 256x1024x16384 4
 *   0.70, 8 0.75; 384x768x12000 4 0.75, 7 0.77; 640x640x8192 4 0.99, 5 1.00; 512x512x8192 4 0.81,
 *   8 0.74 (runs from 0.67 to 0.84 with either); H200, the same shapes: 0.11 -> 0.36, 0.35 -> 0.69,
 *   0.54 -> 0.87, 0.57 -> 0.69, 0.64 -> 0.71, 0.96 -> 1.05, 0.59 -> 0.63.  Tried and not kept:
 *   sharing the fix-up out among the parts (each writes its sums, waits for all the others and adds
 *   1/s of the tile), so that no
 *   owner adds s - 1 slots in turn: 18 us against 25 us at 256x256x16384 with 16 parts, but 16 us
 *   against 10 us at 896^3 with 2, and slower at every shape with 2 or 3 parts (cause not found).
 *   cuBLAS runs split-K kernels with (32,64) and (64,32) tiles at such shapes (their names in
 *   compute-sanitizer's reports), many more CTAs per tile than (128,128) tiles allow here.
 * 1000^3 gains little (1-5 %; H200: 0.77 against 0.73): its time is not the MMAs'.  1024^3, the same 64 tiles and 16 k
 *   tiles, runs in 11 us, 1000^3 in 14 us; 1024x1000x1024 takes 11 us too, but 1000x1024x1024 and
 *   1024x1024x1000 take 12: a leading dimension of A or B of 1000 bf16 (2000 bytes, 16-byte but
 *   not 128-byte aligned) costs about 1.5 us each, every 128-byte row of a TMA box lying across two
 *   lines.  Padded copies with 128-byte rows cost more than that (1000^3 at 0.47 of cuBLAS, 2000^3
 *   0.52 against 0.99), so the lab takes the operands as they come.
 */
#include "hopper.h"
#include "labkit.h"

#define S19_BM 128
#define S19_BN 128
#define S19_STAGES 6
#define S19_STAGE_A (S19_BM * GH_BK * 2)        /* 16 KiB: A's two (64,64) boxes */
#define S19_STAGE_B (S19_BN * GH_BK * 2)        /* 16 KiB: one (64,128) box of B */
#define S19_SMEM (S19_STAGES * (S19_STAGE_A + S19_STAGE_B) + 2 * S19_STAGES * 8 + 1024)
#define S19_SLOT (S19_BM * S19_BN)              /* floats of one CTA's partial sums: 64 KiB */

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
__device__ static inline void s19_consumers_sync(void) { asm volatile("bar.sync 1, 256;\n" ::: "memory"); }
__device__ static inline void s19_fence_acc(float d[64])
{
#pragma unroll
  for (int i = 0; i < 64; ++i) asm volatile("" : "+f"(d[i]) :: "memory");
}
/* one k tile for consumer c: its (64,64) box of A times the stage's (64,128) box of B */
__device__ static inline void s19_mma_ktile(float acc[64], const uint8_t *sA, const uint8_t *sB, int c)
{
  gh_wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < GH_BK / 16; ++kk)
    gh_wgmma_128(acc, gh_desc(sA + c * GH_BOX_A + kk * 2048, GH_BOX_A, 1024), gh_desc(sB + kk * 32, 16, 1024));
  gh_wgmma_commit();
}
#endif

// ANCHOR: kernel
__global__ void __launch_bounds__(384, 1)
k19_split_k(const __grid_constant__ CUtensorMap tA, const __grid_constant__ CUtensorMap tB, int tiles_m, int splits,
            int ktiles, int M, int N, float alpha, float beta, float *C, int ldc, float *work, int *flags, int epoch)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ uint8_t raw[];
  uint8_t *sa = (uint8_t *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023), *sb = sa + S19_STAGES * S19_STAGE_A;
  uint64_t *full = (uint64_t *)(sb + S19_STAGES * S19_STAGE_B), *empty = full + S19_STAGES;
  int tid = threadIdx.x, wg = tid / 128, cta = blockIdx.x;
  int tile = cta / splits, part = cta % splits, tm = tile % tiles_m, tn = tile / tiles_m;
  int kb = (int)((long long)part * ktiles / splits), ke = (int)((long long)(part + 1) * ktiles / splits);
  if (tid == 0) {
    gh_tma_prefetch_map(&tA);
    gh_tma_prefetch_map(&tB);
    for (int s = 0; s < S19_STAGES; ++s) { gh_bar_init(&full[s], 1); gh_bar_init(&empty[s], 8); }
    gh_fence_bar_init();
  }
  __syncthreads();
  if (wg == 0) {                                         // the producer: this part's k tiles
    GH_SETMAXNREG_DEC(40);
    if (tid == 0)
      for (int kt = kb; kt < ke; ++kt) {
        int it = kt - kb, s = it % S19_STAGES;
        if (it >= S19_STAGES) gh_bar_wait(&empty[s], (it / S19_STAGES - 1) & 1);
        uint8_t *a = sa + s * S19_STAGE_A, *b = sb + s * S19_STAGE_B;
        gh_bar_expect(&full[s], S19_STAGE_A + S19_STAGE_B);
        gh_tma_load(a, &tA, &full[s], tm * S19_BM, kt * GH_BK);
        gh_tma_load(a + GH_BOX_A, &tA, &full[s], tm * S19_BM + 64, kt * GH_BK);
        gh_tma_load(b, &tB, &full[s], kt * GH_BK, tn * S19_BN);
      }
    return;
  }
  GH_SETMAXNREG_INC(232);                                // the consumers: rows 64c.. of the tile
  int c = wg - 1, t = tid - 128;
  float acc[64];
#pragma unroll
  for (int j = 0; j < 64; ++j) acc[j] = 0.0f;
  s19_fence_acc(acc);
  for (int kt = kb; kt < ke; ++kt) {
    int it = kt - kb, s = it % S19_STAGES;
    gh_bar_wait(&full[s], (it / S19_STAGES) & 1);
    s19_mma_ktile(acc, sa + s * S19_STAGE_A, sb + s * S19_STAGE_B, c);
    GH_WGMMA_WAIT(1);
    if (it > 0 && tid % 32 == 0) gh_bar_arrive(&empty[(it - 1) % S19_STAGES]);
  }
  GH_WGMMA_WAIT(0);
  s19_fence_acc(acc);
  if (part < splits - 1) {                               // a part: to slot `cta`, then the flag
    float *slot = work + (size_t)cta * S19_SLOT + t;
#pragma unroll
    for (int j = 0; j < 64; ++j) slot[j * 256] = acc[j];
    s19_consumers_sync();                                // all 256 threads' sums are written ...
    if (t == 0) gemm_flag_store(&flags[cta], epoch);      // ... then published (a release at GPU scope)
    return;
  }
  for (int q = 1; q <= part; ++q) {                      // the owner: the parts before it, k descending
    if (t == 0) gemm_flag_wait(&flags[cta - q], epoch);   // traps after ~10 s: a lost partial sum
    s19_consumers_sync();
    const float *slot = work + (size_t)(cta - q) * S19_SLOT + t;
#pragma unroll
    for (int j = 0; j < 64; ++j) acc[j] += __ldcg(slot + j * 256);
  }
  gh_epilogue_cols(acc, 16, tm * S19_BM + 64 * c, tn * S19_BN, M, N, alpha, beta, C, ldc);
#endif
}
// ANCHOR_END: kernel

void gemm_19_split_k(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                     float *C, int ldc)
{
  int sms = gh_sm_count(), splits = gh_split_parts(M, N, K, sms);
  if (splits < 2) {                                      // nothing to share out: step 16, one tile a CTA
    gemm_16_pingpong(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  gh_operands op;
  if (!gh_prepare(M, N, K, A, lda, B, ldb, &op)) {
    gh_fallback(&op, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  static int epoch;
  static float *work;
  static int *flags;
  if (!work) {                                           // one slot and one flag per SM
    LK_CHECK(cudaFuncSetAttribute(k19_split_k, cudaFuncAttributeMaxDynamicSharedMemorySize, S19_SMEM));
    LK_CHECK(cudaMalloc(&work, (size_t)sms * S19_SLOT * sizeof(float)));
    LK_CHECK(cudaMalloc(&flags, (size_t)sms * sizeof(int)));
    LK_CHECK(cudaMemset(flags, 0, (size_t)sms * sizeof(int)));
  }
  int tiles_m = (M + S19_BM - 1) / S19_BM, tiles_n = (N + S19_BN - 1) / S19_BN, ktiles = (K + GH_BK - 1) / GH_BK;
  long long ctas = (long long)tiles_m * tiles_n * splits;
  if (ctas > sms || splits > ktiles || splits > GH_SPLIT_MAX) {   // gh_split_parts never asks for this
    fprintf(stderr, "gemm_19_split_k: %lld CTAs for %d slots, %d parts of %d k tiles\n", ctas, sms, splits, ktiles);
    exit(1);
  }
  epoch = epoch == 0x7fffffff ? 1 : epoch + 1;           // flags of earlier launches never match
  if (epoch == 1) LK_CHECK(cudaMemset(flags, 0, (size_t)sms * sizeof(int)));
  k19_split_k<<<(int)ctas, 384, S19_SMEM>>>(op.a, op.b, tiles_m, splits, ktiles, M, N, alpha, beta, C, ldc, work, flags,
                                             epoch);
  LK_CHECK(cudaGetLastError());
}
