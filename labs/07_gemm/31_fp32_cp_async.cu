/* Step 31 -- fp32 on cp.async stages: step 10's tile, its k tiles copied into shared memory without
 * passing through registers, the copies spread over the k rows.
 *
 * What changes from step 10: only the k loop (fp32_tile.h, t31_ktiles).  The tile (128,256), the
 * 256 threads, their (8,16) outputs, the fragments double-buffered in registers across k rows and
 * the epilogue are step 10's.
 *   - The next k tile no longer travels through registers (3 float4 loads a thread, then a float4
 *     and 8 scalar stores to shared memory once the tile's FMAs are done).  Each thread issues
 *     cp.async copies global -> shared instead: A by one 16-byte copy (m is contiguous in A and in
 *     sA), B by eight 4-byte copies, each landing at its transposed place sB[k][n], which a 16-byte
 *     copy could not do.  Four stages of 8 k (48.5 KiB, dynamic shared memory) hold the tile being
 *     multiplied and the three after it.
 *   - The copies of a k tile are spread over the 8 k rows of the tile three before it: in k row r,
 *     thread t copies element t % 8 of B's column t / 8 + 32 r, and in row 0 A's float4.  In step
 *     10's SASS, each k tile's loop starts with 108 instructions before its first FMA (the next
 *     tile's loads, their tests, addresses and branches), whose stall counts add up to 328 cycles
 *     at one warp's pace, and both warps of a scheduler are in that block at once (they leave the
 *     same barrier), so the FMA pipe waits; spread, the copies slip between the FMAs.
 *   - No branch in the k loop: edges by zero-filled copies (A's float4s past or across the m edge,
 *     k past K or past the range) and clamped addresses (B's columns past the n edge, read at the
 *     last column inside: they feed only columns of C that are never stored), so the whole tile,
 *     ragged or not, is one straight run of code. Where A is not 16-byte aligned (lda or A not a
 *     multiple of 4 floats), a second kernel copies A by four 4-byte copies, at k rows 0, 2, 4 and
 *     6, its rows past the m edge read at the last row inside.
 * Under ncu (H200, 4096^3, --clock-control none), step 10 and cuBLAS's kernel
 *   (sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8_stage3: 256 threads, 254 registers, a
 *   (256,128) tile, 3 stages of 8 k) execute about as many instructions, 2.39 and 2.43 G, 2.15 G of
 *   them FMAs, but a scheduler issued in 79 % of its cycles in step 10 and in 90 % in cuBLAS's.
 *   Step 10's warps lost the difference to "wait" (fixed-latency waits, 0.13 an issued instruction
 *   against 0.01), "dispatch stall" (0.20 against 0.10) and "no instruction" (0.06 against 0.02).
 *   Step 31 issues in 89.6 % (2.43 G instructions): "wait" 0.01, "no instruction" 0.02, "dispatch
 *   stall" 0.17.
 * Register bank conflicts: counting, in the k loop's SASS, the FMAs whose operands read from the
 *   register file (not from the operand reuse cache) include two in the same bank, with two banks by
 *   the register number's parity, tracks ncu's dispatch stalls: 0.18 a loop instruction in step 10
 *   (dispatch stall 0.20), 0.26 and 0.19 in two builds of step 31 (0.22, 0.17).  The order of a
 *   row's 128 FMAs changes how ptxas allocates the accumulators: row by row (step 10's order) gave
 *   the most conflicts in every build looked at, column by column the fewest, and the loop goes
 *   column by column, up and down the rows in turn.  Against row by row, in one process of each
 *   build, twice (ratio to SGEMM): 4096^3 1.001 against 0.982, 8192^3 1.008 against 0.989, 4095^3
 *   1.015 against 0.992, 2048^3 1.001 against 0.982.  The counts move by a third between compiles
 *   of the same loop in another kernel, so the order is a lever on ptxas, not a guarantee.
 * Measured (H200, the build above, one process, two runs, `07_gemm --versions 0,10,31 --shapes 0`;
 *   ratio to SGEMM, step 10 in brackets): 4096^3 1.001-1.002 (0.901), 8192^3 1.008 (0.906), 2048^3
 *   1.001 (0.903), 4095^3 1.015 (0.864), 4097^3 0.871 (0.777: A is not 16-byte aligned and goes by
 *   4-byte copies), 5120x5120x4096 0.936 (0.841), 1000^3 0.29 (0.24: 32 tiles, step 18's business).
 * Tried and dropped (H200, ratio to SGEMM at 4096^3, one process of each variant, twice, with the
 *   row-by-row order): the copies in one block at the top of the tile, as step 10's loads: 3 stages
 *   of 16 k 0.86, 4 stages of 8 k 0.83, both below step 10; spread, in one build: 4 stages of 8 k
 *   0.951, 3 of 16 k 0.947, 4 of 16 k 0.919.
 */
#include "fp32_tile.h"
#include "labkit.h"

// ANCHOR: kernel
/* a16: A is 16-byte aligned (a literal: two kernels) */
__device__ static __forceinline__ void k31_body(int a16, int M, int N, int K, float alpha, const float *__restrict__ A,
                                                int lda, const float *__restrict__ B, int ldb, float beta, float *C,
                                                int ldc, int c_vec)
{
  extern __shared__ __align__(16) float smem[];
  int m0 = blockIdx.x * T10_BM, n0 = blockIdx.y * T10_BN;
  float acc[8][4 * T10_NJ] = {};
  t31_ktiles(a16, acc, smem, A + m0, lda, B + (size_t)n0 * ldb, ldb, M - m0, N - n0, K, 0,
             (K + T10_BK - 1) / T10_BK);
  t10_epilogue(acc, alpha, beta, C, ldc, m0, n0, M - m0, N - n0, c_vec);
}
__global__ void __launch_bounds__(T10_THREADS, 1)
k31_fp32_cp_async(int M, int N, int K, float alpha, const float *__restrict__ A, int lda, const float *__restrict__ B,
                  int ldb, float beta, float *C, int ldc, int c_vec)
{
  k31_body(1, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, c_vec);
}
__global__ void __launch_bounds__(T10_THREADS, 1)
k31_fp32_cp_async_a4(int M, int N, int K, float alpha, const float *__restrict__ A, int lda,
                     const float *__restrict__ B, int ldb, float beta, float *C, int ldc, int c_vec)
{
  k31_body(0, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, c_vec);
}
// ANCHOR_END: kernel

void gemm_31_fp32_cp_async(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
                           float beta, float *C, int ldc)
{
  static int attr;
  if (!attr) {
    LK_CHECK(cudaFuncSetAttribute(k31_fp32_cp_async, cudaFuncAttributeMaxDynamicSharedMemorySize, T31_SMEM));
    LK_CHECK(cudaFuncSetAttribute(k31_fp32_cp_async_a4, cudaFuncAttributeMaxDynamicSharedMemorySize, T31_SMEM));
    attr = 1;
  }
  dim3 grid((M + T10_BM - 1) / T10_BM, (N + T10_BN - 1) / T10_BN);
  (gemm_aligned16(A, lda, 4) ? k31_fp32_cp_async : k31_fp32_cp_async_a4)<<<grid, T10_THREADS, T31_SMEM>>>(
    M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, gemm_aligned16(C, ldc, 4));
  LK_LAUNCH();
}
