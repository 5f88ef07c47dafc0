/* Step 9 -- a grouped CTA order and a staged write-out of C (bf16, mma.sync).
 *
 * What changes from step 8 (same (128,256) CTA tile, (_2,_4) warps of (64,64), BK = 32, 4 stages,
 * same swizzles): only the order of the CTAs and the way C leaves.
 *   - a one-dimensional grid, walked in groups of 16 tile rows, column by column inside a group:
 *     the CTAs in flight at one time share a few panels of B and a band of A (more L2 hits).
 *   - C leaves through shared memory, in two halves of 128 columns (the pipeline's 96 KiB hold
 *     one half): the warps of the half stage their fragments column-major with a padded leading
 *     dimension of 132 (the fragment stores of a warp hit 32 different banks), then every warp
 *     writes whole 512-byte columns with 16-byte stores instead of scattered 4-byte ones.
 * Tried and not kept: BK = 64 with 3 stages (with or without the next k16 step's fragments
 * loaded one step ahead) needs more than 255 registers: ptxas spills.  Registers here: 246 (sm_80),
 * 255 (sm_90), no spills; one CTA of 256 threads per SM, as in step 8.
 * Edges, alignment and the padding of odd leading dimensions are step 8's: cp.async for whole,
 * aligned chunks, element-by-element predicated loads otherwise; the write-out uses 16-byte
 * stores only for a whole tile with an aligned C and predicates every element otherwise.
 * Measured (H200, same run as step 8): 286 TFLOP/s at 4096^3, 0.417 of cuBLAS bf16 (step 8: 0.398);
 *   0.428 at 8192^3 (step 8: 0.416); 1.31x cuBLAS at 4095^3 and 1.27x at 4097^3 (step 8: 1.22x,
 *   1.19x).  A few percent: the main loop, not the order or the write-out, is the limit.
 */
#include "mma_bf16.h"
#include "labkit.h"

#define S9_BM 128
#define S9_BN 256
#define S9_BK 32
#define S9_STAGES 4
#define S9_THREADS 256
#define S9_GROUP 16                    // tile rows per group of the CTA order
#define S9_STAGE_A (S9_BK * S9_BM)     // bf16 elements of one stage of A
#define S9_STAGE_B (S9_BN * S9_BK)
#define S9_SMEM (S9_STAGES * (S9_STAGE_A + S9_STAGE_B) * 2)
#define S9_LDC (S9_BM + 4)             // the staged C tile: (BM,BN):(1,LDC) fp32
#if S9_BN / 2 * S9_LDC * 4 > S9_SMEM
#error "half the staged C tile must fit in the pipeline's shared memory"
#endif

__device__ static inline int s9_swz_a(int k, int m) { return k * S9_BM + (((m / 8) ^ (k % 8)) * 8) + m % 8; }
__device__ static inline int s9_swz_b(int n, int k) { return n * S9_BK + (((k / 8) ^ ((n / 2) % 4)) * 8) + k % 8; }

/* Issue the copies of one k tile into stage buffers sA, sB: 512 chunks of A (two per thread), 1024 of B (four). */
__device__ static inline void s9_load_stage(bf16 *sA, bf16 *sB, const bf16 *A, int lda, const bf16 *B, int ldb,
                                           int m0, int n0, int k0, int M, int N, int K, int a_vec, int b_vec)
{
  int tid = threadIdx.x;
#pragma unroll
  for (int i = 0; i < S9_BM * S9_BK / 8 / S9_THREADS; ++i) {   // A: chunk (m/8, k) of the (128,32) tile
    int q = tid + S9_THREADS * i, m = 8 * (q % 16), k = q / 16;
    bf16 *s = sA + s9_swz_a(k, m);
    const bf16 *g = A + (m0 + m) + (size_t)(k0 + k) * lda;
    if (a_vec && m0 + m + 8 <= M && k0 + k < K) cp_async16(s, g);
    else *(uint4 *)s = load_chunk8(A + m0 + (size_t)k0 * lda, lda, m, k, M - m0, K - k0);
  }
#pragma unroll
  for (int i = 0; i < S9_BN * S9_BK / 8 / S9_THREADS; ++i) {   // B: chunk (k/8, n) of the (32,256) tile
    int q = tid + S9_THREADS * i, k = 8 * (q % 4), n = q / 4;
    bf16 *s = sB + s9_swz_b(n, k);
    const bf16 *g = B + (k0 + k) + (size_t)(n0 + n) * ldb;
    if (b_vec && k0 + k + 8 <= K && n0 + n < N) cp_async16(s, g);
    else *(uint4 *)s = load_chunk8(B + k0 + (size_t)n0 * ldb, ldb, k, n, K - k0, N - n0);
  }
}

/* The fragments of one k16 step of a warp's (64,64) tile: A as 4 (m16,k16), B as 8 (n8,k16). */
__device__ static inline void s9_load_frags(uint32_t fa[4][4], uint32_t fb[8][2], const bf16 *a, const bf16 *b,
                                            int wm, int wn, int kk, int lane)
{
  int j = lane / 8, i = lane % 8;                        // which 8x8 matrix this lane addresses, which row
#pragma unroll
  for (int mi = 0; mi < 4; ++mi) ldsm_x4_trans(fa[mi], a + s9_swz_a(kk + i + 8 * (j / 2), wm + 16 * mi + 8 * (j % 2)));
#pragma unroll
  for (int p = 0; p < 4; ++p) {
    uint32_t r[4];
    ldsm_x4(r, b + s9_swz_b(wn + 16 * p + i + 8 * (j / 2), kk + 8 * (j % 2)));
    fb[2 * p][0] = r[0]; fb[2 * p][1] = r[1]; fb[2 * p + 1][0] = r[2]; fb[2 * p + 1][1] = r[3];
  }
}

__global__ void __launch_bounds__(S9_THREADS)
mma_multistage_kernel(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb,
                      float beta, float *C, int ldc, int a_vec, int b_vec, int c_vec)
{
  extern __shared__ __align__(128) unsigned char s9_smem[];
  bf16 *sA = (bf16 *)s9_smem, *sB = sA + S9_STAGES * S9_STAGE_A;
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  /* the CTA order: groups of S9_GROUP tile rows, column by column inside a group */
  int tiles_m = (M + S9_BM - 1) / S9_BM, tiles_n = (N + S9_BN - 1) / S9_BN;
  int id = blockIdx.x, per_group = S9_GROUP * tiles_n, first = id / per_group * S9_GROUP;
  int rows = min(tiles_m - first, S9_GROUP);
  int tm = first + (id % per_group) % rows, tn = (id % per_group) / rows;
  int m0 = tm * S9_BM, n0 = tn * S9_BN;
  int wm = 64 * (warp % 2), wn = 64 * (warp / 2);       // (_2,_4) warps of (64,64)
  float acc[4][8][4] = {};                               // (m16 tile, n8 tile, fragment)
  int ktiles = (K + S9_BK - 1) / S9_BK;

  for (int s = 0; s < S9_STAGES - 1; ++s) {              // fill the pipe: tiles 0..STAGES-2
    if (s < ktiles) s9_load_stage(sA + s * S9_STAGE_A, sB + s * S9_STAGE_B, A, lda, B, ldb, m0, n0, s * S9_BK, M, N, K, a_vec, b_vec);
    cp_async_commit();
  }
  for (int kt = 0; kt < ktiles; ++kt) {
    CP_ASYNC_WAIT(S9_STAGES - 2);                        // tile kt has landed (this thread's part) ...
    __syncthreads();                                     // ... everyone's; and stage kt-1 is free
    int next = kt + S9_STAGES - 1;
    if (next < ktiles) {
      int ns = next % S9_STAGES;
      s9_load_stage(sA + ns * S9_STAGE_A, sB + ns * S9_STAGE_B, A, lda, B, ldb, m0, n0, next * S9_BK, M, N, K, a_vec, b_vec);
    }
    cp_async_commit();
    const bf16 *a = sA + (kt % S9_STAGES) * S9_STAGE_A, *b = sB + (kt % S9_STAGES) * S9_STAGE_B;
#pragma unroll
    for (int kk = 0; kk < S9_BK; kk += 16) {
      uint32_t fa[4][4], fb[8][2];
      s9_load_frags(fa, fb, a, b, wm, wn, kk, lane);
#pragma unroll
      for (int mi = 0; mi < 4; ++mi)
#pragma unroll
        for (int ni = 0; ni < 8; ++ni) mma_bf16_16816(acc[mi][ni], fa[mi], fb[ni]);
    }
  }
  CP_ASYNC_WAIT(0);
  __syncthreads();                                       // every warp is done with the pipeline's buffers

  /* C in two halves of 128 columns: the warps of the half stage their fragments (c0,c1 at
   * (lane/4, 2*(lane%4) + {0,1}), c2,c3 eight rows below), then all warps write it out */
  float *sC = (float *)s9_smem;
  int fc = c_vec && m0 + S9_BM <= M && n0 + S9_BN <= N;
#pragma unroll 1
  for (int h = 0; h < 2; ++h) {
    if (warp / 4 == h) {
#pragma unroll
      for (int mi = 0; mi < 4; ++mi)
#pragma unroll
        for (int ni = 0; ni < 8; ++ni)
#pragma unroll
          for (int e = 0; e < 4; ++e)
            sC[(wn - S9_BN / 2 * h + 8 * ni + 2 * (lane % 4) + e % 2) * S9_LDC + wm + 16 * mi + lane / 4 + 8 * (e / 2)] = acc[mi][ni][e];
    }
    __syncthreads();
    /* write out: warp w takes columns w, w+8, ... of the half; a lane four consecutive rows */
    for (int j = warp; j < S9_BN / 2; j += S9_THREADS / 32) {
      int n = S9_BN / 2 * h + j;
      float4 v = *(const float4 *)&sC[j * S9_LDC + 4 * lane];
      float *c = C + m0 + 4 * lane + (size_t)(n0 + n) * ldc;
      if (fc) {
        v.x *= alpha; v.y *= alpha; v.z *= alpha; v.w *= alpha;
        if (beta != 0.0f) {
          float4 o = *(const float4 *)c;
          v.x += beta * o.x; v.y += beta * o.y; v.z += beta * o.z; v.w += beta * o.w;
        }
        *(float4 *)c = v;
      } else if (n0 + n < N) {
        float w[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
        for (int r = 0; r < 4; ++r)
          if (m0 + 4 * lane + r < M) c[r] = gemm_epilogue(w[r], alpha, beta, c + r);
      }
    }
    __syncthreads();
  }
}

/* Padding of an unaligned operand, as in step 8 (a scratch buffer of its own, grown as needed). */
typedef struct s9_scratch { void *p; size_t bytes; } s9_scratch;
static s9_scratch s9_pad_a, s9_pad_b;
static const bf16 *s9_padded(s9_scratch *s, const bf16 *X, int ld, int rows, int cols)
{
  int ldp = (rows + 7) / 8 * 8;
  size_t bytes = (size_t)ldp * cols * 2;
  if (bytes > s->bytes) {
    if (s->p) LK_CHECK(cudaFree(s->p));
    LK_CHECK(cudaMalloc(&s->p, bytes));
    s->bytes = bytes;
  }
  LK_CHECK(cudaMemcpy2DAsync(s->p, (size_t)ldp * 2, X, (size_t)ld * 2, (size_t)rows * 2, cols, cudaMemcpyDeviceToDevice, 0));
  return (const bf16 *)s->p;
}

void gemm_9_mma_multistage_epilogue(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb,
                                    float beta, float *C, int ldc)
{
  static int configured = 0;
  if (!configured) {
    LK_CHECK(cudaFuncSetAttribute(mma_multistage_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, S9_SMEM));
    configured = 1;
  }
  if (!gemm_aligned16(A, lda, 2)) { A = s9_padded(&s9_pad_a, A, lda, M, K); lda = (M + 7) / 8 * 8; }
  if (!gemm_aligned16(B, ldb, 2)) { B = s9_padded(&s9_pad_b, B, ldb, K, N); ldb = (K + 7) / 8 * 8; }
  int tiles = ((M + S9_BM - 1) / S9_BM) * ((N + S9_BN - 1) / S9_BN);
  mma_multistage_kernel<<<tiles, S9_THREADS, S9_SMEM>>>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, gemm_aligned16(A, lda, 2),
                                                        gemm_aligned16(B, ldb, 2), gemm_aligned16(C, ldc, 4));
  LK_LAUNCH();
}
