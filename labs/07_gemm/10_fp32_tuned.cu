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
 * predicated edges, beta == 0 never reads C) is step 5's and 6's.
 * Tried and dropped (H200, 4096^3): the (128,128) tile with k step 8 and two CTAs per SM (128
 *   registers, no spills): 0.827 of cuBLAS, below step 6; the same tile with one CTA: 0.792; with
 *   a k step of 16 and one CTA (step 6 plus the fragment double buffer): 0.809; a grouped CTA order
 *   (8 or 16 tile rows per group, as step 9) on the (128,256) tile: 0.861, 4 points under the 2-D grid.
 * Measured (H200, one run of the full runner, output-gpu.txt): 4096^3 46.3 TFLOP/s, 0.900 of cuBLAS
 *   (step 6: 43.6, 0.848); 8192^3 46.4 TFLOP/s, 0.904 (step 6: 0.855).
 */
#include "gemm.h"
#include "labkit.h"

#define T10_BK 8                      // k step: keeps the shared tiles under the 48 KiB of static smem
#define T10_NJ 4                      // (_4,_4) column blocks per thread: 4 -> a (128,256) CTA tile
#define T10_BM 128
#define T10_BN (64 * T10_NJ)
#define T10_LDB (T10_BN + 4)          // padded row of sB: conflict-free transposing stores
#define T10_THREADS 256
#define T10_NVA (T10_BK * T10_BM / 1024)   // float4s of A per thread and tile
#define T10_NVB (T10_BK * T10_BN / 1024)   // float4s of B per thread and tile
#define T10_KV (T10_BK / 4)           // float4s along k in one column of a B tile

/* A (BM,BK) tile: threads (_32,_8) over float4 columns (m = 4*(t%32), k = t/32 + 8*i);
 * B (BK,BN) tile: threads (_KV,_256/KV) over float4s along k (k = 4*(t%KV), n = t/KV + (256/KV)*i).
 * `fast`: the whole tile is in bounds and 16-byte aligned; otherwise every element is predicated. */
__device__ static inline void t10_load(float4 ra[T10_NVA], float4 rb[T10_NVB], const float *gA, int lda,
                                       const float *gB, int ldb, int mleft, int nleft, int kleft, int fast_a, int fast_b)
{
  int t = threadIdx.x;
#pragma unroll
  for (int i = 0; i < T10_NVA; ++i) {
    int m = 4 * (t % 32), k = t / 32 + 8 * i;
    const float *p = gA + m + (size_t)k * lda;
    if (fast_a) ra[i] = __ldg((const float4 *)p);
    else {
      float v[4];
#pragma unroll
      for (int j = 0; j < 4; ++j) v[j] = (m + j < mleft && k < kleft) ? __ldg(p + j) : 0.0f;
      ra[i] = make_float4(v[0], v[1], v[2], v[3]);
    }
  }
#pragma unroll
  for (int i = 0; i < T10_NVB; ++i) {
    int k = 4 * (t % T10_KV), n = t / T10_KV + (T10_THREADS / T10_KV) * i;
    const float *p = gB + k + (size_t)n * ldb;
    if (fast_b) rb[i] = __ldg((const float4 *)p);
    else {
      float v[4];
#pragma unroll
      for (int j = 0; j < 4; ++j) v[j] = (k + j < kleft && n < nleft) ? __ldg(p + j) : 0.0f;
      rb[i] = make_float4(v[0], v[1], v[2], v[3]);
    }
  }
}

__device__ static inline void t10_store(float (*sA)[T10_BM], float (*sB)[T10_LDB], const float4 ra[T10_NVA], const float4 rb[T10_NVB])
{
  int t = threadIdx.x;
#pragma unroll
  for (int i = 0; i < T10_NVA; ++i) *(float4 *)&sA[t / 32 + 8 * i][4 * (t % 32)] = ra[i];
#pragma unroll
  for (int i = 0; i < T10_NVB; ++i) {
    int k = 4 * (t % T10_KV), n = t / T10_KV + (T10_THREADS / T10_KV) * i;
    sB[k][n] = rb[i].x; sB[k + 1][n] = rb[i].y; sB[k + 2][n] = rb[i].z; sB[k + 3][n] = rb[i].w;
  }
}

// ANCHOR: fp32_tuned
__global__ void __launch_bounds__(T10_THREADS, 1)
fp32_tuned_kernel(int M, int N, int K, float alpha, const float *__restrict__ A, int lda, const float *__restrict__ B,
                  int ldb, float beta, float *C, int ldc, int a_vec, int b_vec, int c_vec)
{
  __shared__ __align__(16) float sA[2][T10_BK][T10_BM];
  __shared__ __align__(16) float sB[2][T10_BK][T10_LDB];
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  int wm = 64 * (warp % 2), wn = 16 * T10_NJ * (warp / 2);   // the warp tile: (_2,_4) warps of (64,16*NJ)
  int lm = lane % 8, ln = lane / 8;                      // the lane: (_8,_4) lanes of (_4,_4) values
  int m0 = blockIdx.x * T10_BM, n0 = blockIdx.y * T10_BN;
  int mleft = M - m0, nleft = N - n0;
  const float *gA = A + m0, *gB = B + (size_t)n0 * ldb;
  int fast_a = a_vec && mleft >= T10_BM, fast_b = b_vec && nleft >= T10_BN;
  int ktiles = (K + T10_BK - 1) / T10_BK, kfull = K / T10_BK;   // tiles, and tiles with BK real k
  size_t a_step = (size_t)T10_BK * lda;

  float acc[8][4 * T10_NJ] = {};
  float4 ra[T10_NVA], rb[T10_NVB];
  t10_load(ra, rb, gA, lda, gB, ldb, mleft, nleft, K, fast_a && kfull > 0, fast_b && kfull > 0);
  t10_store(sA[0], sB[0], ra, rb);
  __syncthreads();
  for (int kt = 0; kt < ktiles; ++kt) {
    int cur = kt & 1;
    if (kt + 1 < ktiles) {                               // tile kt+1 travels into registers
      gA += a_step;
      gB += T10_BK;
      int full = kt + 1 < kfull;
      t10_load(ra, rb, gA, lda, gB, ldb, mleft, nleft, K - (kt + 1) * T10_BK, fast_a && full, fast_b && full);
    }
    float4 fa[2][2], fb[2][T10_NJ];                      // [row k parity][block]
#pragma unroll
    for (int h = 0; h < 2; ++h) fa[0][h] = *(const float4 *)&sA[cur][0][wm + 32 * h + 4 * lm];
#pragma unroll
    for (int j = 0; j < T10_NJ; ++j) fb[0][j] = *(const float4 *)&sB[cur][0][wn + 16 * j + 4 * ln];
#pragma unroll
    for (int k = 0; k < T10_BK; ++k) {
      int p = k & 1;
      if (k + 1 < T10_BK) {                              // row k+1 loads while row k multiplies
#pragma unroll
        for (int h = 0; h < 2; ++h) fa[p ^ 1][h] = *(const float4 *)&sA[cur][k + 1][wm + 32 * h + 4 * lm];
#pragma unroll
        for (int j = 0; j < T10_NJ; ++j) fb[p ^ 1][j] = *(const float4 *)&sB[cur][k + 1][wn + 16 * j + 4 * ln];
      }
      float a[8], b[4 * T10_NJ];
#pragma unroll
      for (int h = 0; h < 2; ++h) { a[4 * h] = fa[p][h].x; a[4 * h + 1] = fa[p][h].y; a[4 * h + 2] = fa[p][h].z; a[4 * h + 3] = fa[p][h].w; }
#pragma unroll
      for (int j = 0; j < T10_NJ; ++j) { b[4 * j] = fb[p][j].x; b[4 * j + 1] = fb[p][j].y; b[4 * j + 2] = fb[p][j].z; b[4 * j + 3] = fb[p][j].w; }
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 4 * T10_NJ; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    if (kt + 1 < ktiles) t10_store(sA[cur ^ 1], sB[cur ^ 1], ra, rb);
    __syncthreads();
  }
// ANCHOR_END: fp32_tuned

  /* the epilogue: thread (lm,ln) of the warp owns rows wm + 4*lm + {0..3, 32..35} and columns
   * wn + 4*ln + {0..3, 16..19}; a column's 4 rows leave as one float4 (8 lanes: 128 bytes) */
  int fc = c_vec && mleft >= T10_BM && nleft >= T10_BN;
#pragma unroll
  for (int j = 0; j < 4 * T10_NJ; ++j) {
    int n = wn + 4 * ln + (j % 4) + 16 * (j / 4);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      int m = wm + 4 * lm + 32 * h;
      float *c = C + m0 + m + (size_t)(n0 + n) * ldc;
      if (fc) {
        float4 v = make_float4(alpha * acc[4 * h][j], alpha * acc[4 * h + 1][j], alpha * acc[4 * h + 2][j], alpha * acc[4 * h + 3][j]);
        if (beta != 0.0f) {
          float4 o = *(const float4 *)c;
          v.x += beta * o.x; v.y += beta * o.y; v.z += beta * o.z; v.w += beta * o.w;
        }
        *(float4 *)c = v;
      } else if (n < nleft) {
#pragma unroll
        for (int r = 0; r < 4; ++r)
          if (m + r < mleft) c[r] = gemm_epilogue(acc[4 * h + r][j], alpha, beta, c + r);
      }
    }
  }
}

void gemm_10_fp32_tuned(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
                        float beta, float *C, int ldc)
{
  dim3 grid((M + T10_BM - 1) / T10_BM, (N + T10_BN - 1) / T10_BN);
  fp32_tuned_kernel<<<grid, T10_THREADS>>>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, gemm_aligned16(A, lda, 4),
                                           gemm_aligned16(B, ldb, 4), gemm_aligned16(C, ldc, 4));
  LK_LAUNCH();
}
