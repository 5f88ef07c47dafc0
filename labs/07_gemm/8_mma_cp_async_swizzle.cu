/* Step 8 -- cp.async with a 4-stage pipeline into a swizzled shared-memory layout (bf16, mma.sync).
 *
 * What changes from step 7: the tiles go from global to shared memory with cp.async (no trip
 * through registers, no thread waiting on them), four k tiles in flight: while the warps compute
 * tile k, tiles k+1..k+3 are arriving.  One barrier per tile.
 * The padding of step 7 becomes a swizzle, so a row is exactly its data (no wasted bytes, and the
 * stage fits 16 KiB):
 *   sA (BK,BM) = (32,128): the 16-byte chunk c of row k is stored at chunk c ^ (k % 8).  ldmatrix
 *     reads the same logical chunk of 8 consecutive rows: they land in 8 different chunks, i.e.
 *     all 32 banks (without the swizzle: one chunk, an 8-way conflict).
 *   sB (BN,BK) = (128,32): rows are 64 bytes, two to a 128-byte line; chunk c of row n is stored at
 *     c ^ ((n / 2) % 4), so 8 consecutive rows again cover the 8 chunk positions of a line.
 * In CuTe's words (on element offsets): Swizzle<3,3,4> over (32,128) and Swizzle<2,3,3> over (256,32).
 * And a larger tile: (128,256) per CTA, (64,64) per warp, so a warp issues 32 mma per 8 ldmatrix
 * (16 per 6 in step 7): the shared-memory bandwidth per mma falls by a third.
 * Unaligned inputs (a leading dimension that is not a multiple of 8 bf16, e.g. 4095 or 4097):
 * every chunk would take the slow path, so the launcher pads instead -- it copies A and B once
 * into a scratch buffer whose leading dimension is rounded up to 64 (cudaMemcpy2DAsync, about 5%
 * of the GEMM at 4097^3) and runs the aligned kernel on the copy; only the last, ragged chunk of
 * each column still goes element by element.
 * Edges and alignment: a 16-byte chunk wholly inside the matrix, with its column 16-byte aligned,
 * goes by cp.async; any other chunk (a ragged edge, an odd leading dimension) is read element by
 * element with the identity-tensor predicate and stored with an ordinary 16-byte store, which the
 * barrier before its use also orders.  C is written fragment by fragment, each element predicated.
 * Measured (H200): 274 TFLOP/s at 4096^3 (0.413 of cuBLAS bf16), 0.419 at 8192^3; with the padding,
 *   1.23x cuBLAS at 4095^3 and 1.20x at 4097^3, where cuBLAS leaves its fast kernels (odd lda).
 */
#include "mma_bf16.h"
#include "labkit.h"

#define S8_BM 128
#define S8_BN 256
#define S8_BK 32
#define S8_STAGES 4
#define S8_WN (S8_BN / 4)              // (_2,_4) warps, each (64, BN/4)
#define S8_NI (S8_WN / 8)              // n8 mma tiles per warp
#define S8_THREADS 256
#define S8_STAGE_A (S8_BK * S8_BM)     // bf16 elements of one stage of A
#define S8_STAGE_B (S8_BN * S8_BK)
#define S8_SMEM (S8_STAGES * (S8_STAGE_A + S8_STAGE_B) * 2)

// ANCHOR: swizzle
__device__ static inline int s8_swz_a(int k, int m) { return k * S8_BM + (((m / 8) ^ (k % 8)) * 8) + m % 8; }
__device__ static inline int s8_swz_b(int n, int k) { return n * S8_BK + (((k / 8) ^ ((n / 2) % 4)) * 8) + k % 8; }
// ANCHOR_END: swizzle

/* Issue the copies of one k tile into stage buffers sA, sB: 512 chunks of A (two per thread), 1024 of B (four). */
__device__ static inline void s8_load_stage(bf16 *sA, bf16 *sB, const bf16 *A, int lda, const bf16 *B, int ldb,
                                           int m0, int n0, int k0, int M, int N, int K, int a_vec, int b_vec)
{
  int tid = threadIdx.x;
#pragma unroll
  for (int i = 0; i < 2; ++i) {           // A: chunk (m/8, k) of the (128,32) tile, m contiguous
    int q = tid + S8_THREADS * i, m = 8 * (q % 16), k = q / 16;
    bf16 *s = sA + s8_swz_a(k, m);
    const bf16 *g = A + (m0 + m) + (size_t)(k0 + k) * lda;
    if (a_vec && m0 + m + 8 <= M && k0 + k < K) cp_async16(s, g);
    else *(uint4 *)s = load_chunk8(A + m0 + (size_t)k0 * lda, lda, m, k, M - m0, K - k0);
  }
#pragma unroll
  for (int i = 0; i < S8_BN * S8_BK / 8 / S8_THREADS; ++i) {   // B: chunk (k/8, n) of the (32,BN) tile, k contiguous
    int q = tid + S8_THREADS * i, k = 8 * (q % 4), n = q / 4;
    bf16 *s = sB + s8_swz_b(n, k);
    const bf16 *g = B + (k0 + k) + (size_t)(n0 + n) * ldb;
    if (b_vec && k0 + k + 8 <= K && n0 + n < N) cp_async16(s, g);
    else *(uint4 *)s = load_chunk8(B + k0 + (size_t)n0 * ldb, ldb, k, n, K - k0, N - n0);
  }
}

// ANCHOR: mma_pipeline
__global__ void __launch_bounds__(S8_THREADS)
mma_cp_async_swizzle_kernel(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb,
                            float beta, float *C, int ldc, int a_vec, int b_vec)
{
  extern __shared__ __align__(128) unsigned char s8_smem[];
  bf16 *sA = (bf16 *)s8_smem, *sB = sA + S8_STAGES * S8_STAGE_A;
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  int m0 = blockIdx.x * S8_BM, n0 = blockIdx.y * S8_BN;
  int wm = 64 * (warp % 2), wn = S8_WN * (warp / 2);    // (_2,_4) warps of (64,WN)
  float acc[4][S8_NI][4] = {};                               // (m16 tile, n8 tile, fragment)
  int ktiles = (K + S8_BK - 1) / S8_BK;

  for (int s = 0; s < S8_STAGES - 1; ++s) {              // fill the pipe: tiles 0..STAGES-2
    if (s < ktiles) s8_load_stage(sA + s * S8_STAGE_A, sB + s * S8_STAGE_B, A, lda, B, ldb, m0, n0, s * S8_BK, M, N, K, a_vec, b_vec);
    cp_async_commit();
  }
  for (int kt = 0; kt < ktiles; ++kt) {
    CP_ASYNC_WAIT(S8_STAGES - 2);                        // tile kt has landed (this thread's part) ...
    __syncthreads();                                     // ... everyone's; and stage kt-1 is free
    int next = kt + S8_STAGES - 1;
    if (next < ktiles) {
      int ns = next % S8_STAGES;
      s8_load_stage(sA + ns * S8_STAGE_A, sB + ns * S8_STAGE_B, A, lda, B, ldb, m0, n0, next * S8_BK, M, N, K, a_vec, b_vec);
    }
    cp_async_commit();
    const bf16 *a = sA + (kt % S8_STAGES) * S8_STAGE_A, *b = sB + (kt % S8_STAGES) * S8_STAGE_B;
    int j = lane / 8, i = lane % 8;                      // which 8x8 matrix this lane addresses, which row
#pragma unroll
    for (int kk = 0; kk < S8_BK; kk += 16) {
      uint32_t fa[4][4], fb[S8_NI][2];
#pragma unroll
      for (int mi = 0; mi < 4; ++mi)                     // A: (m16,k16) as 4 matrices (m8,k8), transposed
        ldsm_x4_trans(fa[mi], a + s8_swz_a(kk + i + 8 * (j / 2), wm + 16 * mi + 8 * (j % 2)));
#pragma unroll
      for (int p = 0; p < S8_NI / 2; ++p) {             // B: (n16,k16) as 4 matrices (n8,k8)
        uint32_t r[4];
        ldsm_x4(r, b + s8_swz_b(wn + 16 * p + i + 8 * (j / 2), kk + 8 * (j % 2)));
        fb[2 * p][0] = r[0]; fb[2 * p][1] = r[1]; fb[2 * p + 1][0] = r[2]; fb[2 * p + 1][1] = r[3];
      }
#pragma unroll
      for (int mi = 0; mi < 4; ++mi)
#pragma unroll
        for (int ni = 0; ni < S8_NI; ++ni) mma_bf16_16816(acc[mi][ni], fa[mi], fb[ni]);
    }
  }
  CP_ASYNC_WAIT(0);
// ANCHOR_END: mma_pipeline
  /* the accumulator fragment: c0,c1 at (lane/4, 2*(lane%4) + {0,1}), c2,c3 eight rows below */
#pragma unroll
  for (int mi = 0; mi < 4; ++mi)
#pragma unroll
    for (int ni = 0; ni < S8_NI; ++ni)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        int m = m0 + wm + 16 * mi + lane / 4 + 8 * (e / 2), n = n0 + wn + 8 * ni + 2 * (lane % 4) + e % 2;
        if (m < M && n < N) {
          float *c = C + m + (size_t)n * ldc;
          *c = gemm_epilogue(acc[mi][ni][e], alpha, beta, c);
        }
      }
}


/* The kernel as it is, on the operands as they are: an unaligned operand goes element by element
 * (the predicated path that the Hopper steps weigh against a padded copy, hopper.cu). */
static void s8_launch(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                      float *C, int ldc)
{
  static int configured = 0;
  if (!configured) {
    LK_CHECK(cudaFuncSetAttribute(mma_cp_async_swizzle_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, S8_SMEM));
    configured = 1;
  }
  dim3 grid((M + S8_BM - 1) / S8_BM, (N + S8_BN - 1) / S8_BN);
  mma_cp_async_swizzle_kernel<<<grid, S8_THREADS, S8_SMEM>>>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc,
                                                              gemm_aligned16(A, lda, 2), gemm_aligned16(B, ldb, 2));
  LK_LAUNCH();
}

void gemm_8_predicated(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                       float *C, int ldc)
{
  s8_launch(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_8_mma_cp_async_swizzle(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb,
                                 float beta, float *C, int ldc)
{
  if (!gemm_aligned16(A, lda, 2)) A = gemm_pad_bf16(0, A, &lda, M, K);
  if (!gemm_aligned16(B, ldb, 2)) B = gemm_pad_bf16(1, B, &ldb, K, N);
  s8_launch(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}
