/* gemm.h -- what the runner (gemm.cu) and the kernels (N_name.cu) share.
 *
 * Every version computes C = alpha * A * B + beta * C with BLAS's conventions: A is M x K, B is
 * K x N, C is M x N, all column-major with leading dimensions lda >= M, ldb >= K, ldc >= M; when
 * beta is 0, C is only written, never read (so a poisoned C must come out clean).
 *
 *   // mA is (M,K):(_1,lda)   mB is (K,N):(_1,ldb)   mC is (M,N):(_1,ldc)
 *
 * All fp32 versions share one launcher signature, all bf16 versions another (A and B in bf16,
 * C and the accumulation in fp32, like cublasGemmEx with CUBLAS_COMPUTE_32F).
 */
#ifndef GEMM_H
#define GEMM_H

#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <stdint.h>

typedef __nv_bfloat16 bf16;

typedef void (*gemm_f32_fn)(int M, int N, int K, float alpha, const float *A, int lda,
                            const float *B, int ldb, float beta, float *C, int ldc);
typedef void (*gemm_bf16_fn)(int M, int N, int K, float alpha, const bf16 *A, int lda,
                             const bf16 *B, int ldb, float beta, float *C, int ldc);

/* the ladder, one launcher per file */
void gemm_1_naive(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb, float beta, float *C, int ldc);
void gemm_2_smem_local_tile(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb, float beta, float *C, int ldc);
void gemm_3_register_blocking(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb, float beta, float *C, int ldc);
void gemm_4_vectorized(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb, float beta, float *C, int ldc);
void gemm_5_double_buffered(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb, float beta, float *C, int ldc);
void gemm_6_warp_tiling(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb, float beta, float *C, int ldc);
void gemm_10_fp32_tuned(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb, float beta, float *C, int ldc);
void gemm_31_fp32_cp_async(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb, float beta, float *C, int ldc);
void gemm_18_fp32_stream_k(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb, float beta, float *C, int ldc);
/* step 18's rule: Stream-K, whole tiles (step 10) and split-K, estimated in k tiles of one CTA on P
 * CTAs; the launcher runs step 10 where whole is the lowest, else split-K where split < stream_k.
 * Returns split-K's parts a tile (1 where it does not apply: *split is then HUGE_VAL) */
int gemm_18_estimates(int M, int N, int K, int P, double *stream_k, double *whole, double *split);
/* the launcher's choice among them; *parts: split-K's parts a tile */
enum { GEMM18_WHOLE, GEMM18_SPLIT, GEMM18_STREAM_K };
int gemm_18_choice(int M, int N, int K, int P, int *parts);
void gemm_7_mma_ldmatrix(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);
void gemm_8_mma_cp_async_swizzle(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);
void gemm_9_mma_multistage_epilogue(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);
/* step 8's kernel without its padded copies: unaligned operands are read element by element */
void gemm_8_predicated(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);
/* the Hopper path (sm_90a: TMA, wgmma); on another GPU they call step 9, and where an operand breaks
 * TMA's 16-byte rule and a padded copy would not pay, the predicated step 8 (hopper.cu says when) */
void gemm_11_tma_wgmma(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);
void gemm_12_warp_specialized(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);
void gemm_13_persistent(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);
void gemm_14_cluster_multicast(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);
void gemm_15_stream_k(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);
void gemm_16_pingpong(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);
void gemm_17_tma_store(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);
void gemm_19_split_k(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);
void gemm_20_small_tiles(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);
void gemm_21_tile_192(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);
void gemm_22_stream_k_192(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);
void gemm_23_clusters_share_a(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);
void gemm_24_clusters_192(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);
void gemm_25_narrow(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);
void gemm_26_tile_192_narrow(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);
void gemm_27_stream_k_clusters(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);
/* step 28, thin problems on the CUDA cores (any GPU); gemm_28_kernel: the kernel its launcher runs
 * for a shape, 1 rows (M <= 8), 2 cols (N <= 8), 3 outer (K <= 64), 0 none (it runs the best path) */
void gemm_28_thin(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);
int gemm_28_kernel(int M, int N, int K);
/* the parts its rows or cols kernel cuts each k loop into on a GPU of `sms` SMs, of *kpart k each */
int gemm_28_parts(int M, int N, int K, int sms, int *kpart);
/* step 29, one wave of (128,96) tiles, one a CTA, or of (128,128) ones where those do not fit at once */
void gemm_29_one_wave(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);
/* step 30, (256,128) or (256,96) tiles, one a CTA, for C of 65 to 128 columns and many rows */
void gemm_30_tall(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C, int ldc);

/* The CTA tiling, done by the library on the host (gemm.cu): zipped_divide(mX, (BM,BK)) is
 * ((BM,BK),(ceil(M/BM),ceil(K/BK))):((_1,ld),(BM,BK*ld)), and local_tile(mX, tiler, (i,k)) is its
 * rest mode evaluated at (i,k).  A kernel gets the two strides of the rest mode. */
typedef struct gemm_tiling {
  int64_t tile_stride0;   /* offset between tiles along mode 0 (rows):    BM            */
  int64_t tile_stride1;   /* offset between tiles along mode 1 (columns): BK * ld        */
} gemm_tiling;
gemm_tiling gemm_tile_of(int rows, int cols, int ld, int bm, int bk);

/* A copy of the rows x cols operand X (which: 0 for A, 1 for B) with its leading dimension rounded
 * up to 64 bf16; *ld becomes the copy's (pad.cu) */
const bf16 *gemm_pad_bf16(int which, const bf16 *X, int *ld, int rows, int cols);
/* Copies of A (M x K) and B (K x N) in one launch, their leading dimensions rounded up to 64 bf16;
 * *A, *B, *lda and *ldb become the copies'.  Needs M and K multiples of 8, and A, B and their
 * columns 16-byte aligned (pad.cu) */
void gemm_pad_pair_bf16(const bf16 **A, int *lda, int M, int K, const bf16 **B, int *ldb, int N);

/* 1 if p and every column start (p + j*ld) are 16-byte aligned for elements of `size` bytes */
static inline int gemm_aligned16(const void *p, int ld, int size)
{
  return ((uintptr_t)p % 16 == 0) && ((int64_t)ld * size % 16 == 0);
}

/* beta == 0 means C is not read (BLAS): a kernel's epilogue */
#if defined(__CUDACC__)
// ANCHOR: flags
/* The flags of the Stream-K and split-K fix-ups (steps 15, 18, 19, 22): a CTA stores the launch's
 * epoch after its partial sums with a release at GPU scope, the owner loads it with an acquire;
 * an owner that waits about 10 s (2e10 cycles at 2 GHz) for a partial sum traps instead of hanging. */
__device__ static inline void gemm_flag_store(int *flag, int v)
{
  asm volatile("st.release.gpu.global.b32 [%0], %1;\n" ::"l"(flag), "r"(v) : "memory");
}
__device__ static inline int gemm_flag_load(const int *flag)
{
  int v;
  asm volatile("ld.acquire.gpu.global.b32 %0, [%1];\n" : "=r"(v) : "l"(flag) : "memory");
  return v;
}
__device__ static inline void gemm_flag_wait(const int *flag, int epoch)
{
  long long t0 = clock64();
  while (gemm_flag_load(flag) != epoch)
    if (clock64() - t0 > 20000000000ll) __trap();
}
// ANCHOR_END: flags

__device__ static inline float gemm_epilogue(float acc, float alpha, float beta, const float *c)
{
  return beta == 0.0f ? alpha * acc : alpha * acc + beta * *c;
}
#endif

#endif
