/* Step 28 -- thin problems on the CUDA cores: C with a side of a few elements, or K of a few.
 *
 * What changes from step 25: nothing of the Hopper machinery is left.  Where M or N is 1 (a
 * matrix-vector product) or K is 1 (an outer product), the GEMM does 2 flops for each element it
 * reads or writes: its time is the time to move the big operand, and a tensor-core kernel only
 * adds to it -- a padded copy of the vector (lda = 1 breaks TMA's 16-byte rule), boxes of 64 rows
 * of which one is real, a fix-up.  Three kernels here move the bytes and do the flops with FMAs:
 *
 *   rows  (M <= 2: C has one or two rows)   C(m,n) = A(m,:) . B(:,n).  B's columns are contiguous
 *         in k, so a warp takes column n of C and walks B's column n, 16 bytes a lane (8 bf16), 8
 *         loads in flight, each lane's 8 k against the same 8 k of A's rows, which the block stages
 *         in shared memory, k contiguous -- or, where M = 1 and A's row is contiguous (lda = 1),
 *         which each lane loads beside B's (k28_rows_direct); the warp adds its lanes up with shuffles.
 *   cols  (N <= 2: C has one or two columns)   C(:,n) = sum over k of A(:,k) B(k,n).  A's columns
 *         are contiguous in m, so a lane takes 8 rows of C and walks k, one 16-byte load of A's
 *         column a step (a warp reads 512 contiguous bytes), B(k,n) the same for the whole warp; a
 *         block is 256 rows of C, its 8 warps take every 8th k and add up through shared memory.
 *   outer (K small, any M and N)   a warp writes 256 rows of one column of C, 8 a lane, every load
 *         of A and store of C contiguous across the warp: the time is the time to write C (4 bytes
 *         an element; 8 where beta reads it too).
 *
 * Where the rows or cols blocks are too few to keep the SMs busy, the k loop is cut into parts, as
 * in step 25: every part writes its partial sums to a workspace slot and counts itself in on its
 * block's counter, and the last to count adds the slots in ascending order and writes C -- the same
 * sums whichever part comes last.  Any alignment: 16-byte loads where the operand allows them
 * (every column 16-byte aligned), element loads where it does not.  Any GPU: no wgmma, no TMA.
 *
 * The best path takes this step where C has at most 2 rows or columns, where K is at most 2, and
 * where K is at most 8 and C is small (hopper.cu, thin_pays).  Measured (NVIDIA H200, ratio to
 * cuBLAS in the same run, output-thin; in brackets the route before, step 25's narrow tiles or,
 * with K = 1 or 2, step 9): 1 x 3079 x 2399 0.83 (0.20), 1 x 1277 x 1377 1.18 (0.35), 1 x 4096 x 4096
 * 1.27 (0.58), 1 x 8192 x 8192 0.99 (0.74), 2 x 4096 x 4096 1.33 (1.00), 4709 x 1 x 3068 1.02 (0.28),
 * 4096 x 1 x 4096 0.87 (0.74), 8192 x 1 x 8192 0.81 (0.68), 4096 x 2 x 4096 0.80 (0.74), 37 x 1 x 2314
 * 0.68 (0.46), 738 x 1 x 4330 0.98 (0.45), 2049 x 4787 x 1 1.38 (0.67), 4237 x 793 x 1 1.41 (0.54),
 * 4096 x 4096 x 1 1.25 (0.93), 8192 x 8192 x 1 1.15 (0.99), 4096 x 4096 x 2 1.23 (1.08).  In an
 * earlier recording, A's row staged at M = 1: 0.82-1.84 at the matrix-vector shapes (step 25
 * 0.23-1.01) -- cuBLAS's time at these 5-42 us calls moves by up to a third between processes.
 * Through the best path, another process: 1000 x 1000 x 4 1.85, 1000 x 1000 x 8 1.52,
 * 1024 x 1024 x 8 1.32, 3000 x 3000 x 2 1.72.
 *   k28_rows_direct against k28_rows at M = 1, lda = 1, side by side in one run: 1 x 8192 x 8192
 *   1.00 against 0.83, 1 x 5000 x 5000 0.95 against 0.84, 1 x 66 x 5000 1.91 against 1.64, level
 *   or ahead at seven more of ten shapes (its 103 registers leave two blocks an SM, against four).
 *   Behind cuBLAS still: 8192 x 1 x 8192, A of 128 MiB streaming from memory through the cols
 *   kernel (3.2 TB/s against cuBLAS's 3.9).
 * Tried and changed: (1) C up to 8 rows or columns here: at 4 and 8 rows or columns these kernels
 *   read 0.15-0.74 of cuBLAS where step 25 reads 0.93-1.13 (the FMAs and the loads of B or A per
 *   k grow with the narrow side), so the narrow side stops at 2; (2) the outer kernel with 4
 *   elements a thread and a 64-bit division to find them: 2049 x 4787 x 1 0.72, against 1.39 with
 *   the warp's rows contiguous and a 2-D grid; (3) the cols kernel with 256 rows a block and parts of
 *   256 k or more: 16 us at 37 x 1 x 2314 (8 CTAs, 40 k a thread, element loads), against 8 us with
 *   parts of at least 64 k (19 parts of 128 k there); (4) the outer kernel at larger K: 4096 x 4096 x 4 0.68 and x 8 0.39 against the
 *   tensor cores' 0.85 and 1.08 (the FMAs and the loads of A per element of C), hence the rule.
 */
#include "hopper.h"
#include "labkit.h"

#define S28_THREADS 256
#define S28_NARROW 2                   /* the rows and cols kernels: M or N up to this */
#define S28_OUTER_K 64                 /* the outer kernel: K up to this (the best path's bound is lower) */
#define S28_STAGE (32 * 1024)          /* the rows kernel: bytes of A staged in shared memory at a time */
#define S28_ROWS_MIN_K 1024            /* the fewest k a part of the rows kernel takes */
#define S28_COLS_MIN_K 64              /* the fewest k a part of the cols kernel takes */
#define S28_MAX_PARTS 64

/* the 8 bf16 of u (16 bytes, loaded from global or shared memory) as floats */
__device__ static inline void s28_unpack8(uint4 u, float f[8])
{
  const __nv_bfloat162 *h = (const __nv_bfloat162 *)&u;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    float2 v = __bfloat1622float2(h[i]);
    f[2 * i] = v.x;
    f[2 * i + 1] = v.y;
  }
}

__device__ static inline float s28_warp_sum(float v)
{
#pragma unroll
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

/* The last of a block's `parts` to count in: 1 in every thread of that block, 0 in the others.
 * Every thread has written its slot (with __stcg) before it calls this. */
__device__ static inline int s28_last_part(int *count, int parts)
{
  __shared__ int last;
  __threadfence();                                       // my slot before the count
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(count, 1) == parts - 1;
  __syncthreads();
  if (last) __threadfence();                             // the others' slots after their counts
  return last;
}

// ANCHOR: rows
/* C has M <= 2 rows.  Block (bx, part): warp w takes column n = 8 bx + w, k in the part's range.
 * `direct` (a constant): M = 1 and A's row contiguous (lda = 1), so each lane loads A's 8 k beside
 * B's, from global memory, and nothing is staged in shared memory. */
__device__ static inline void s28_rows(const int direct, int M, int N, int K, int kpart, int parts, int chunk, int vec,
                                       float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                                       float *C, int ldc, float *work, int *count)
{
  extern __shared__ uint4 s28_dyn[];
  bf16 *sA = (bf16 *)s28_dyn;                            // A's M rows of the chunk: (M, chunk), k contiguous
  int lane = threadIdx.x % 32, n = blockIdx.x * 8 + threadIdx.x / 32, part = blockIdx.y;
  int k0 = part * kpart, k1 = min(K, k0 + kpart);
  float acc[S28_NARROW];
#pragma unroll
  for (int m = 0; m < S28_NARROW; ++m) acc[m] = 0.0f;
  gh_grid_wait_any();
  const bf16 *b = B + (size_t)(n < N ? n : 0) * ldb;
  for (int kc = k0; kc < k1; kc += chunk) {              // one chunk a part, unless A's rows are long
    int len = min(chunk, k1 - kc), width = (len + 255) / 256 * 256;
    if (!direct) {
      __syncthreads();                                   // the chunk before is read
      for (int i = threadIdx.x; i < M * width; i += S28_THREADS) {
        int m = i % M, kk = i / M;                       // m fastest: A's columns are contiguous in m
        sA[m * chunk + kk] = kk < len ? A[m + (size_t)(kc + kk) * lda] : __float2bfloat16(0.0f);
      }
      __syncthreads();
    }
    if (n >= N) continue;
    for (int kk = 8 * lane; kk < len; kk += 8 * 256) {   // 8 of the lane's 16-byte pieces of B in flight
      uint4 raw[8], rawa[8];                             // (and of A's row, direct)
#pragma unroll
      for (int u = 0; u < 8; ++u) {
        int k = kk + 256 * u;
        if (vec && k + 8 <= len) {
          raw[u] = __ldg((const uint4 *)(b + kc + k));
          if (direct) rawa[u] = __ldg((const uint4 *)(A + kc + k));
        } else {                                         // element by element, zeros past len
          bf16 h[8], g[8];
#pragma unroll
          for (int e = 0; e < 8; ++e) {
            h[e] = k + e < len ? b[kc + k + e] : __float2bfloat16(0.0f);
            g[e] = direct && k + e < len ? A[kc + k + e] : __float2bfloat16(0.0f);
          }
          raw[u] = *(const uint4 *)h;
          rawa[u] = *(const uint4 *)g;
        }
      }
#pragma unroll
      for (int u = 0; u < 8; ++u) {
        int k = kk + 256 * u;
        if (k >= len) break;
        float bv[8];
        s28_unpack8(raw[u], bv);
#pragma unroll
        for (int m = 0; m < S28_NARROW; ++m) {
          if (m >= M) break;
          float av[8];
          s28_unpack8(direct ? rawa[u] : *(const uint4 *)(sA + m * chunk + k), av);   // zeros past len
#pragma unroll
          for (int e = 0; e < 8; ++e) acc[m] = fmaf(av[e], bv[e], acc[m]);
        }
      }
    }
  }
  float mine = 0.0f;                                     // lane m keeps row m's sum
#pragma unroll
  for (int m = 0; m < S28_NARROW; ++m) {
    float s = s28_warp_sum(acc[m]);
    if (lane == m) mine = s;
  }
  int writes = n < N && lane < M;
  if (parts > 1) {
    float *slot = work + ((size_t)part * N + n) * S28_NARROW + lane;
    if (writes) __stcg(slot, mine);
    if (!s28_last_part(&count[blockIdx.x], parts)) {
      gh_grid_release_any();
      return;
    }
    if (writes) {
      float s = 0.0f;
      for (int p = 0; p < parts; ++p) s += __ldcg(work + ((size_t)p * N + n) * S28_NARROW + lane);   // ascending
      mine = s;
    }
    if (threadIdx.x == 0) count[blockIdx.x] = 0;         // every part has counted: ready for the next launch
  }
  if (writes) {
    float *c = C + lane + (size_t)n * ldc;
    *c = gemm_epilogue(mine, alpha, beta, c);
  }
  gh_grid_release_any();
}
// ANCHOR_END: rows
__global__ void __launch_bounds__(S28_THREADS)
k28_rows(int M, int N, int K, int kpart, int parts, int chunk, int vec, float alpha, const bf16 *A, int lda,
         const bf16 *B, int ldb, float beta, float *C, int ldc, float *work, int *count)
{
  s28_rows(0, M, N, K, kpart, parts, chunk, vec, alpha, A, lda, B, ldb, beta, C, ldc, work, count);
}
__global__ void __launch_bounds__(S28_THREADS)
k28_rows_direct(int M, int N, int K, int kpart, int parts, int chunk, int vec, float alpha, const bf16 *A, int lda,
                const bf16 *B, int ldb, float beta, float *C, int ldc, float *work, int *count)
{
  s28_rows(1, M, N, K, kpart, parts, chunk, vec, alpha, A, lda, B, ldb, beta, C, ldc, work, count);
}

// ANCHOR: cols
/* C has N <= 2 columns.  Block (bx, part): 256 rows of C from m0 = 256 bx; lane l of warp w takes
 * rows m0 + 8 l .. + 7 (a warp reads 512 contiguous bytes of a column of A) and k = k0 + w, + 8,
 * + 16, ... of the part's range; the 8 warps add up through shared memory at the end. */
__global__ void __launch_bounds__(S28_THREADS)
k28_cols(int M, int N, int K, int kpart, int parts, int vec, float alpha, const bf16 *A, int lda, const bf16 *B,
         int ldb, float beta, float *C, int ldc, float *work, int *count)
{
  __shared__ float red[8][S28_NARROW][256];              // the 8 warps' sums: (warp, column, row)
  int t = threadIdx.x, lane = t % 32, w = t / 32, m = blockIdx.x * 256 + 8 * lane, part = blockIdx.y;
  int k0 = part * kpart + w, k1 = min(K, part * kpart + kpart);
  int full = vec && m + 8 <= M;                          // the lane's 8 rows in one 16-byte load
  float acc[S28_NARROW][8];
#pragma unroll
  for (int j = 0; j < S28_NARROW; ++j)
#pragma unroll
    for (int e = 0; e < 8; ++e) acc[j][e] = 0.0f;
  gh_grid_wait_any();
  for (int k = k0; k < k1; k += 8 * 8) {                 // eight columns of A in flight
    uint4 raw[8];
    float bv[8][S28_NARROW];
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      int kk = k + 8 * u;
      const bf16 *a = A + m + (size_t)kk * lda;
      if (kk < k1 && full) {
        raw[u] = __ldg((const uint4 *)a);
      } else {                                           // element by element, zeros past M and k1
        bf16 h[8];
#pragma unroll
        for (int e = 0; e < 8; ++e) h[e] = kk < k1 && m + e < M ? a[e] : __float2bfloat16(0.0f);
        raw[u] = *(const uint4 *)h;
      }
#pragma unroll
      for (int j = 0; j < S28_NARROW; ++j) bv[u][j] = j < N && kk < k1 ? __bfloat162float(B[kk + (size_t)j * ldb]) : 0.0f;
    }
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      float av[8];
      s28_unpack8(raw[u], av);
#pragma unroll
      for (int j = 0; j < S28_NARROW; ++j)
#pragma unroll
        for (int e = 0; e < 8; ++e) acc[j][e] = fmaf(av[e], bv[u][j], acc[j][e]);
    }
  }
#pragma unroll
  for (int j = 0; j < S28_NARROW; ++j)
#pragma unroll
    for (int e = 0; e < 8; ++e) red[w][j][8 * lane + e] = acc[j][e];
  __syncthreads();
  int mr = blockIdx.x * 256 + t;                         // thread t: row t of the block, every column
  float sum[S28_NARROW];
#pragma unroll
  for (int j = 0; j < S28_NARROW; ++j) {
    sum[j] = 0.0f;
    for (int q = 0; q < 8; ++q) sum[j] += red[q][j][t];  // the warps in order
  }
  int rows = mr < M;
  if (parts > 1) {
    float *slot = work + (size_t)part * N * M;           // part's slot: (M, N), column-major
#pragma unroll
    for (int j = 0; j < S28_NARROW; ++j)
      if (rows && j < N) __stcg(slot + mr + (size_t)j * M, sum[j]);
    if (!s28_last_part(&count[blockIdx.x], parts)) {
      gh_grid_release_any();
      return;
    }
#pragma unroll
    for (int j = 0; j < S28_NARROW; ++j) {
      sum[j] = 0.0f;
      if (rows && j < N)
        for (int p = 0; p < parts; ++p) sum[j] += __ldcg(work + (size_t)p * N * M + mr + (size_t)j * M);   // ascending
    }
    if (t == 0) count[blockIdx.x] = 0;
  }
#pragma unroll
  for (int j = 0; j < S28_NARROW; ++j)
    if (rows && j < N) {
      float *c = C + mr + (size_t)j * ldc;
      *c = gemm_epilogue(sum[j], alpha, beta, c);
    }
  gh_grid_release_any();
}
// ANCHOR_END: cols

// ANCHOR: outer
/* K small: warp w of block (bx, by) writes C(m0 + lane + 32 i, n) for i < 8, n = 8 bx + w and
 * m0 = 256 by (then 256 gridDim.y further, while m0 < M): every load of A and store of C is
 * contiguous across the warp, whatever the alignment */
__global__ void __launch_bounds__(S28_THREADS)
k28_outer(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C,
          int ldc)
{
  int lane = threadIdx.x % 32, n = blockIdx.x * 8 + threadIdx.x / 32;
  gh_grid_wait_any();
  if (n < N)
    for (int m0 = blockIdx.y * 256 + lane; m0 < M; m0 += gridDim.y * 256) {
      float acc[8];
#pragma unroll
      for (int i = 0; i < 8; ++i) acc[i] = 0.0f;
      for (int k = 0; k < K; ++k) {
        float b = __bfloat162float(B[k + (size_t)n * ldb]);
        const bf16 *a = A + m0 + (size_t)k * lda;
#pragma unroll
        for (int i = 0; i < 8; ++i)
          if (m0 + 32 * i < M) acc[i] = fmaf(__bfloat162float(a[32 * i]), b, acc[i]);
      }
      float *c = C + m0 + (size_t)n * ldc;
#pragma unroll
      for (int i = 0; i < 8; ++i)
        if (m0 + 32 * i < M) c[32 * i] = gemm_epilogue(acc[i], alpha, beta, c + 32 * i);
    }
  gh_grid_release_any();
}
// ANCHOR_END: outer

/* the workspace of the parts: `floats` of slots and `counters` counters (zero between launches) */
static void s28_workspace(size_t floats, size_t counters, float **work, int **count)
{
  static float *w;
  static int *c;
  static size_t wcap, ccap;
  if (floats > wcap) {
    if (w) LK_CHECK(cudaFree(w));
    LK_CHECK(cudaMalloc(&w, floats * sizeof(float)));
    wcap = floats;
  }
  if (counters > ccap) {
    if (c) LK_CHECK(cudaFree(c));
    LK_CHECK(cudaMalloc(&c, counters * sizeof(int)));
    LK_CHECK(cudaMemset(c, 0, counters * sizeof(int)));
    ccap = counters;
  }
  *work = w;
  *count = c;
}

/* parts of at least min_k k each (kpart a multiple of `grain`), as many as bring `blocks` blocks up
 * to `target`, at most S28_MAX_PARTS */
static int s28_parts(long long blocks, int K, int min_k, int grain, long long target, int *kpart)
{
  long long parts = blocks >= target ? 1 : (target + blocks - 1) / blocks;
  long long most = K / min_k;
  if (parts > most) parts = most;
  if (parts > S28_MAX_PARTS) parts = S28_MAX_PARTS;
  if (parts < 1) parts = 1;
  int kp = (int)((K + parts - 1) / parts);
  kp = (kp + grain - 1) / grain * grain;
  if (kp < grain) kp = grain;
  *kpart = kp;
  return (K + kp - 1) / kp > 0 ? (K + kp - 1) / kp : 1;
}

/* the kernel step 28's launcher runs for a shape: 1 rows, 2 cols, 3 outer, 0 none (not thin) */
int gemm_28_kernel(int M, int N, int K)
{
  if (M <= S28_NARROW) return 1;
  if (N <= S28_NARROW) return 2;
  if (K <= S28_OUTER_K) return 3;
  return 0;
}

/* the parts the rows or cols kernel cuts its k loops into on `sms` SMs, and their k (*kpart): as
 * many as bring the blocks to 2 (rows) or 4 (cols) an SM, each at least S28_ROWS_MIN_K or
 * S28_COLS_MIN_K k, its k a multiple of 256 or 64; 1 for the outer kernel (--route prints them) */
int gemm_28_parts(int M, int N, int K, int sms, int *kpart)
{
  int kind = gemm_28_kernel(M, N, K);
  *kpart = K;
  if (kind == 1) return s28_parts((N + 7) / 8, K, S28_ROWS_MIN_K, 256, 2LL * sms, kpart);
  if (kind == 2) return s28_parts((M + 255) / 256, K, S28_COLS_MIN_K, 64, 4LL * sms, kpart);
  return 1;
}

void gemm_28_thin(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                  float *C, int ldc)
{
  int kind = gemm_28_kernel(M, N, K);
  if (!kind) {                                           // not thin: the best path
    gemm_17_tma_store(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  cudaLaunchConfig_t cfg;
  cudaLaunchAttribute attr[2];
  float *work;
  int *count, kpart, parts = gemm_28_parts(M, N, K, gh_sm_count(), &kpart);
  if (kind == 1) {
    long long blocks = (N + 7) / 8;
    s28_workspace(parts > 1 ? (size_t)parts * N * S28_NARROW : 0, (size_t)blocks, &work, &count);
    int vec = gemm_aligned16(B, ldb, 2), most = S28_STAGE / (2 * M) / 256 * 256;
    int direct = vec && M == 1 && lda == 1 && (uintptr_t)A % 16 == 0;   // A's row read as B is, no staging
    int chunk = direct ? kpart : kpart < most ? (kpart + 255) / 256 * 256 : most;   // A's rows of a part, or as many as fit
    gh_launch_config(&cfg, attr, dim3((unsigned)blocks, (unsigned)parts), S28_THREADS, direct ? 0 : (size_t)M * chunk * 2, 1);
    LK_CHECK(cudaLaunchKernelEx(&cfg, direct ? k28_rows_direct : k28_rows, M, N, K, kpart, parts, chunk, vec, alpha, A,
                                lda, B, ldb, beta, C, ldc, work, count));
  } else if (kind == 2) {
    long long blocks = (M + 255) / 256;
    s28_workspace(parts > 1 ? (size_t)parts * N * M : 0, (size_t)blocks, &work, &count);
    int vec = gemm_aligned16(A, lda, 2);
    gh_launch_config(&cfg, attr, dim3((unsigned)blocks, (unsigned)parts), S28_THREADS, 0, 1);
    LK_CHECK(cudaLaunchKernelEx(&cfg, k28_cols, M, N, K, kpart, parts, vec, alpha, A, lda, B, ldb, beta, C, ldc, work,
                                count));
  } else {
    long long rows = (M + 255) / 256;
    gh_launch_config(&cfg, attr, dim3((unsigned)((N + 7) / 8), (unsigned)(rows < 65535 ? rows : 65535)), S28_THREADS, 0, 1);
    LK_CHECK(cudaLaunchKernelEx(&cfg, k28_outer, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc));
  }
  LK_CHECK(cudaGetLastError());
}
