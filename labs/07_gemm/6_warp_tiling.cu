/* Step 6 -- warp tiling: the threads of a warp share a compact 64 x 32 piece of the CTA tile.
 *
 * What changes from step 5: only which elements of C a thread owns.  The 8 warps of the CTA tile
 * the (128,128) tile of C as (_2,_4) warp tiles of (64,32); inside a warp tile, lane l owns the
 * (4,4) blocks at rows 4*(l%8) + {0,32} and columns 4*(l/8) + {0,16}: in CuTe's terms a
 * local_partition of the warp tile by the thread layout (_8,_4) with a (_4,_4) value block.
 * Why: in step 5 a warp's 32 threads spanned 16 float4 columns of sA (two LDS wavefronts per
 * load); now they span 8 of sA (one 128-byte wavefront) and 4 of sB (a broadcast), so the
 * shared-memory traffic per FMA halves, and the warp's piece of C stays in a few cache lines.
 * Registers: 137 per thread, so one CTA of 256 threads per SM.  Holding it to 128 registers for two
 * CTAs per SM (__launch_bounds__(256, 2)) made ptxas spill 92 bytes per thread, so it is not done.
 * Everything else (double buffer, float4 paths, predicated edges) is step 5's.
 * Measured (H200, 4096^3): 43.6 TFLOP/s, 0.848 of cuBLAS -- no gain over step 5 (0.847): with one
 *   CTA per SM the limit is latency, not shared-memory bandwidth; 8192^3: 0.856.
 */
#include "gemm.h"
#include "labkit.h"

#define S6_BM 128
#define S6_BN 128
#define S6_BK 16
#define S6_PAD 4
#define S6_THREADS 256

__device__ static inline float4 s6_load_col4(const float *g, int ld, int r, int c, int rows_left, int cols_left, int fast)
{
  if (fast) return *(const float4 *)&g[r + (size_t)c * ld];
  float v[4];
#pragma unroll
  for (int j = 0; j < 4; ++j) v[j] = (r + j < rows_left && c < cols_left) ? g[r + j + (size_t)c * ld] : 0.0f;
  return make_float4(v[0], v[1], v[2], v[3]);
}

// ANCHOR: warp_tiling
/* global -> registers: A with threads (_32,_8) over float4 columns, twice (k and k+8);
 * B with threads (_4,_64) over float4s along k, twice (n and n+64) */
__device__ static inline void s6_load(float4 ra[2], float4 rb[2], const float *gA, int lda, const float *gB, int ldb,
                                      int k0, int mleft, int nleft, int K, int a_vec, int b_vec)
{
  int tid = threadIdx.x, kleft = K - k0;
  int fa = a_vec && mleft >= S6_BM && kleft >= S6_BK, fb = b_vec && nleft >= S6_BN && kleft >= S6_BK;
#pragma unroll
  for (int i = 0; i < 2; ++i) ra[i] = s6_load_col4(gA + (size_t)k0 * lda, lda, 4 * (tid % 32), tid / 32 + 8 * i, mleft, kleft, fa);
#pragma unroll
  for (int i = 0; i < 2; ++i) rb[i] = s6_load_col4(gB + k0, ldb, 4 * (tid % 4), tid / 4 + 64 * i, kleft, nleft, fb);
}

/* registers -> shared buffer: A as it is, B transposed into sB[k][n] */
__device__ static inline void s6_store(float (*sA)[S6_BM], float (*sB)[S6_BN + S6_PAD], const float4 ra[2], const float4 rb[2])
{
  int tid = threadIdx.x;
#pragma unroll
  for (int i = 0; i < 2; ++i) *(float4 *)&sA[tid / 32 + 8 * i][4 * (tid % 32)] = ra[i];
#pragma unroll
  for (int i = 0; i < 2; ++i) {
    int k = 4 * (tid % 4), n = tid / 4 + 64 * i;
    sB[k][n] = rb[i].x; sB[k + 1][n] = rb[i].y; sB[k + 2][n] = rb[i].z; sB[k + 3][n] = rb[i].w;
  }
}

__global__ void __launch_bounds__(S6_THREADS)
warp_tiling_kernel(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
                       float beta, float *C, int ldc, int a_vec, int b_vec, int c_vec)
{
  __shared__ __align__(16) float sA[2][S6_BK][S6_BM];
  __shared__ __align__(16) float sB[2][S6_BK][S6_BN + S6_PAD];
  int tid = threadIdx.x;
  int warp = tid / 32, lane = tid % 32;
  int wm = 64 * (warp % 2), wn = 32 * (warp / 2);     // the warp tile: (_2,_4) warps of (64,32)
  int lm = lane % 8, ln = lane / 8;                    // the lane: (_8,_4) lanes of (_4,_4) values
  int m0 = blockIdx.x * S6_BM, n0 = blockIdx.y * S6_BN;
  const float *gA = A + m0, *gB = B + (size_t)n0 * ldb;
  int mleft = M - m0, nleft = N - n0;
  float acc[8][8] = {};
  float4 ra[2], rb[2];
  s6_load(ra, rb, gA, lda, gB, ldb, 0, mleft, nleft, K, a_vec, b_vec);
  s6_store(sA[0], sB[0], ra, rb);
  __syncthreads();
  int ktiles = (K + S6_BK - 1) / S6_BK;
  for (int kt = 0; kt < ktiles; ++kt) {
    int cur = kt & 1;
    if (kt + 1 < ktiles) s6_load(ra, rb, gA, lda, gB, ldb, (kt + 1) * S6_BK, mleft, nleft, K, a_vec, b_vec);
#pragma unroll
    for (int k = 0; k < S6_BK; ++k) {
      float4 a0 = *(const float4 *)&sA[cur][k][wm + 4 * lm], a1 = *(const float4 *)&sA[cur][k][wm + 32 + 4 * lm];
      float4 b0 = *(const float4 *)&sB[cur][k][wn + 4 * ln], b1 = *(const float4 *)&sB[cur][k][wn + 16 + 4 * ln];
      float a[8] = { a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w };
      float b[8] = { b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w };
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] += a[i] * b[j];
    }
    if (kt + 1 < ktiles) s6_store(sA[cur ^ 1], sB[cur ^ 1], ra, rb);
    __syncthreads();
  }
// ANCHOR_END: warp_tiling
  int fc = c_vec && mleft >= S6_BM && nleft >= S6_BN;
#pragma unroll
  for (int j = 0; j < 8; ++j) {
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

void gemm_6_warp_tiling(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
                            float beta, float *C, int ldc)
{
  dim3 grid((M + S6_BM - 1) / S6_BM, (N + S6_BN - 1) / S6_BN);
  warp_tiling_kernel<<<grid, S6_THREADS>>>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, gemm_aligned16(A, lda, 4),
                                               gemm_aligned16(B, ldb, 4), gemm_aligned16(C, ldc, 4));
  LK_LAUNCH();
}
