/* Step 10 -- the fp32 ladder tuned: a (128,256) CTA tile, 8 x 16 elements of C per thread.
 *
 * What changes from step 6: each thread owns twice the columns, so each element it reads from
 * shared memory feeds twice the FMAs.
 *   - the CTA tile grows to (128,256) with the same 256 threads; the (_2,_4) warps now tile it with
 *     (64,64) warp tiles, and lane (l%8, l/8) owns 2 x 4 blocks of (_4,_4): rows 4*(l%8) + {0,32},
 *     columns 4*(l/8) + {0,16,32,48}.  Per row k of a tile a thread issues 2 + 4 float4 loads from
 *     shared memory for 8 x 16 = 128 FMAs: 21 FMAs per load where step 6 had 16 (8 x 8 from 4).
 *   - k step 8: the (128,8) + (8,256) tiles, double-buffered, take 24 KiB, under the 48 KiB of static
 *     shared memory (a k step of 16 would not fit with the padded sB), and the next tile in flight
 *     is 3 float4s per thread.  224 registers on sm_80, 240 on sm_90, no spills: one CTA (8 warps)
 *     per SM, as in step 6.
 *   - A needs no transpose: a column of A (fixed k) is already contiguous in m, so sA[k][m] is a
 *     float4 copy.  B is the operand that turns: a column of B is contiguous in k, and the
 *     transposing stores go to sB[k][n] with rows padded to 260 floats (260 * 4 mod 32 = 16), so
 *     the 2 x 16 scalar stores of a warp land on 32 different banks.
 *   - the fragments of row k+1 are loaded from shared memory while row k is multiplied (the loop is
 *     unrolled, so this double buffer lives in registers); the interior test is taken once per
 *     CTA, and the k loop walks two pointers; only the ragged k tile and edge CTAs predicate.
 * Everything else (register prefetch of the next tile, one barrier per tile, float4 epilogue,
 * predicated edges, beta == 0 never reads C) is step 5's and 6's.  The loads, the k loop and the
 * epilogue live in fp32_tile.h, beside step 31's k loop, which feeds the same tile by cp.async and
 * which step 18 runs over ranges of k tiles.
 * Tried and dropped (H200, 4096^3): the (128,128) tile with k step 8 and two CTAs per SM (128
 *   registers, no spills): 0.827 of cuBLAS, below step 6; the same tile with one CTA: 0.792; with
 *   a k step of 16 and one CTA (step 6 plus the fragment double buffer): 0.809; a grouped CTA order
 *   (8 or 16 tile rows per group, as step 9) on the (128,256) tile: 0.861, 4 points under the 2-D grid.
 * Measured (H200, one run of the full runner, output-gpu.txt): 4096^3 46.2 TFLOP/s, 0.899 of cuBLAS
 *   (step 6: 43.6, 0.849); 8192^3 46.3 TFLOP/s, 0.904 (step 6: 0.856).
 */
#include "fp32_tile.h"
#include "labkit.h"

// ANCHOR: fp32_kernel
__global__ void __launch_bounds__(T10_THREADS, 1)
fp32_tuned_kernel(int M, int N, int K, float alpha, const float *__restrict__ A, int lda, const float *__restrict__ B,
                  int ldb, float beta, float *C, int ldc, int a_vec, int b_vec, int c_vec)
{
  __shared__ __align__(16) float sA[2][T10_BK][T10_BM];
  __shared__ __align__(16) float sB[2][T10_BK][T10_LDB];
  int m0 = blockIdx.x * T10_BM, n0 = blockIdx.y * T10_BN;
  int mleft = M - m0, nleft = N - n0;
  float acc[8][4 * T10_NJ] = {};
  t10_ktiles(acc, sA, sB, A + m0, lda, B + (size_t)n0 * ldb, ldb, mleft, nleft, K, 0, (K + T10_BK - 1) / T10_BK,
             a_vec && mleft >= T10_BM, b_vec && nleft >= T10_BN);
  t10_epilogue(acc, alpha, beta, C, ldc, m0, n0, mleft, nleft, c_vec);
}
// ANCHOR_END: fp32_kernel

void gemm_10_fp32_tuned(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
                        float beta, float *C, int ldc)
{
  dim3 grid((M + T10_BM - 1) / T10_BM, (N + T10_BN - 1) / T10_BN);
  fp32_tuned_kernel<<<grid, T10_THREADS>>>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, gemm_aligned16(A, lda, 4),
                                           gemm_aligned16(B, ldb, 4), gemm_aligned16(C, ldc, 4));
  LK_LAUNCH();
}
