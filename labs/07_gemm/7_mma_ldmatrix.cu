/* Step 7 -- bf16 on the tensor cores: mma.sync fed by ldmatrix (fp32 accumulate, fp32 C).
 *
 * What changes from the fp32 ladder: the inputs are bf16 and the arithmetic is
 * mma.sync.m16n8k16 (a 16x16 by 16x8 product per warp and instruction).  A CTA of 8 warps owns a
 * 128 x 128 tile of C, each warp a 64 x 32 piece of it: 4 x 4 mma tiles, 64 fp32 accumulators per
 * thread.  Per k step of 16 a warp loads its fragments with ldmatrix -- 4 ldmatrix.x4.trans for A,
 * 2 ldmatrix.x4 for B -- instead of one 4-byte load per element and thread.
 * Why .trans for A: the mma wants A as (m16,k16) with k contiguous per thread pair; column-major
 * A is m-contiguous, so the tile is stored as it arrives, sA[k][m], and ldmatrix transposes each
 * 8x8 matrix on the way into registers.  B, column-major, is k-contiguous per column: exactly the
 * "col" operand, no transpose.
 * Shared memory: rows padded by 8 bf16 (16 bytes), so the 8 row addresses of one ldmatrix matrix
 * fall in 8 different 16-byte bank groups (272- and 80-byte row pitches).
 * The loads are plain: global -> registers -> shared, then a barrier, compute, a barrier.
 * Edges and alignment: 16-byte chunks wholly inside and aligned are one uint4 load; other chunks
 * are read element by element with the identity-tensor predicate (zero outside).
 * Measured (H200, 4096^3): 112 TFLOP/s, 0.169 of cuBLAS bf16 (663 TFLOP/s): the warps stall on the
 *   synchronous loads and the two barriers per tile -- step 8 removes that.
 */
#include "mma_bf16.h"
#include "labkit.h"

#define S7_BM 128
#define S7_BN 128
#define S7_BK 32
#define S7_PAD 8
#define S7_THREADS 256

// ANCHOR: mma_ldmatrix
__global__ void __launch_bounds__(S7_THREADS)
mma_ldmatrix_kernel(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb,
                    float beta, float *C, int ldc, int a_vec, int b_vec)
{
  __shared__ __align__(16) bf16 sA[S7_BK][S7_BM + S7_PAD];   // (BK,BM), m contiguous
  __shared__ __align__(16) bf16 sB[S7_BN][S7_BK + S7_PAD];   // (BN,BK), k contiguous
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  int m0 = blockIdx.x * S7_BM, n0 = blockIdx.y * S7_BN;
  int wm = 64 * (warp % 2), wn = 32 * (warp / 2);
  float acc[4][4][4] = {};
  for (int k0 = 0; k0 < K; k0 += S7_BK) {
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      int q = tid + S7_THREADS * i, m = 8 * (q % 16), k = q / 16;
      const bf16 *g = A + (m0 + m) + (size_t)(k0 + k) * lda;
      *(uint4 *)&sA[k][m] = (a_vec && m0 + m + 8 <= M && k0 + k < K) ? *(const uint4 *)g
                            : load_chunk8(A + m0 + (size_t)k0 * lda, lda, m, k, M - m0, K - k0);
    }
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      int q = tid + S7_THREADS * i, k = 8 * (q % 4), n = q / 4;
      const bf16 *g = B + (k0 + k) + (size_t)(n0 + n) * ldb;
      *(uint4 *)&sB[n][k] = (b_vec && k0 + k + 8 <= K && n0 + n < N) ? *(const uint4 *)g
                            : load_chunk8(B + k0 + (size_t)n0 * ldb, ldb, k, n, K - k0, N - n0);
    }
    __syncthreads();
    int j = lane / 8, i = lane % 8;
#pragma unroll
    for (int kk = 0; kk < S7_BK; kk += 16) {
      uint32_t fa[4][4], fb[4][2];
#pragma unroll
      for (int mi = 0; mi < 4; ++mi) ldsm_x4_trans(fa[mi], &sA[kk + i + 8 * (j / 2)][wm + 16 * mi + 8 * (j % 2)]);
#pragma unroll
      for (int p = 0; p < 2; ++p) {
        uint32_t r[4];
        ldsm_x4(r, &sB[wn + 16 * p + i + 8 * (j / 2)][kk + 8 * (j % 2)]);
        fb[2 * p][0] = r[0]; fb[2 * p][1] = r[1]; fb[2 * p + 1][0] = r[2]; fb[2 * p + 1][1] = r[3];
      }
#pragma unroll
      for (int mi = 0; mi < 4; ++mi)
#pragma unroll
        for (int ni = 0; ni < 4; ++ni) mma_bf16_16816(acc[mi][ni], fa[mi], fb[ni]);
    }
    __syncthreads();
  }
// ANCHOR_END: mma_ldmatrix
#pragma unroll
  for (int mi = 0; mi < 4; ++mi)
#pragma unroll
    for (int ni = 0; ni < 4; ++ni)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        int m = m0 + wm + 16 * mi + lane / 4 + 8 * (e / 2), n = n0 + wn + 8 * ni + 2 * (lane % 4) + e % 2;
        if (m < M && n < N) {
          float *c = C + m + (size_t)n * ldc;
          *c = gemm_epilogue(acc[mi][ni][e], alpha, beta, c);
        }
      }
}

void gemm_7_mma_ldmatrix(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb,
                         float beta, float *C, int ldc)
{
  dim3 grid((M + S7_BM - 1) / S7_BM, (N + S7_BN - 1) / S7_BN);
  mma_ldmatrix_kernel<<<grid, S7_THREADS>>>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc,
                                            gemm_aligned16(A, lda, 2), gemm_aligned16(B, ldb, 2));
  LK_LAUNCH();
}
