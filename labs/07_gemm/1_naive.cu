/* Step 1 -- naive: one thread per element of C, reading A and B straight from global memory.
 *
 * What it is: thread (m, n) walks k and sums A(m,k) * B(k,n).  Consecutive threads of a warp take
 * consecutive m, so the reads of A and the writes of C are coalesced (column-major: m is the
 * contiguous index) and every thread of the warp reads the same B(k,n) (a broadcast).
 * What it costs: each element of A and B is read from memory (or L2) once per use -- 2K loads per
 * 2K flops; the arithmetic units wait on the loads.  Measured (H200, one run of `07_gemm --csv`): 6.0 TFLOP/s at 4096^3,
 * 0.117 of cuBLAS SGEMM (pedantic fp32); figures/data/gemm.csv holds every size.
 * Edges: the bound check m < M, n < N is the whole predication.
 */
#include "gemm.h"
#include "labkit.h"

#define NAIVE_BM 32   // threads of a CTA along m (a warp: coalesced along the column)
#define NAIVE_BN 8    // along n

// ANCHOR: naive
__global__ void naive_kernel(int M, int N, int K, float alpha, const float *A, int lda,
                             const float *B, int ldb, float beta, float *C, int ldc)
{
  int m = blockIdx.x * NAIVE_BM + threadIdx.x % NAIVE_BM;
  int n = blockIdx.y * NAIVE_BN + threadIdx.x / NAIVE_BM;
  if (m >= M || n >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += A[m + (size_t)k * lda] * B[k + (size_t)n * ldb];
  float *c = &C[m + (size_t)n * ldc];
  *c = gemm_epilogue(acc, alpha, beta, c);
}
// ANCHOR_END: naive

void gemm_1_naive(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
                  float beta, float *C, int ldc)
{
  dim3 grid((M + NAIVE_BM - 1) / NAIVE_BM, (N + NAIVE_BN - 1) / NAIVE_BN);
  naive_kernel<<<grid, NAIVE_BM * NAIVE_BN>>>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
  LK_LAUNCH();
}
