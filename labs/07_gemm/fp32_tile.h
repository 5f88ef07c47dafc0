/* fp32_tile.h -- the (128,256) fp32 tile of steps 10, 31 and 18: its loads, its two k loops and its
 * epilogue.
 *
 * Step 10 runs one tile per CTA over the whole k loop, staging the next k tile in registers
 * (t10_ktiles); step 31 runs the same tile with the k tiles brought in by cp.async into four
 * shared-memory stages, the copies spread over the k rows (t31_ktiles); step 18 runs step 31's k
 * loop over a range of k tiles (a Stream-K unit or a split-K part) and adds partial sums between
 * CTAs before the epilogue.  The layout of the tile, the threads and the shared memory is
 * described in 10_fp32_tuned.cu, what step 31 changes in 31_fp32_cp_async.cu.
 * Tried and dropped (H100 80GB HBM3, two runs, each build in its own process with SGEMM): an edge
 *   tile loading float4s, each tested, where none straddles the edge (A 16-byte aligned with M a
 *   multiple of 4; B with K a multiple of 4), in place of element by element.  Step 10 gained 4 % at
 *   2000^3 (0.405 -> 0.388 ms) and step 18 3 % at 1000^3 and 1000 x 1000 x 2000, but the three-way
 *   choice of loads cost step 10 2.5 % at 4097^3 (4.01 -> 4.11 ms), whose unaligned operands take
 *   the element-by-element loads as before.  With a second copy of the k loop for unaligned
 *   operands, chosen once per CTA, that copy ran 30 % slower (4097^3 5.20 ms, 4095^3 4.24 against
 *   3.30) and the aligned one 2 % (4096^3 3.04 against 2.98 ms).  Step 18's split-K ran those
 *   loads in a kernel of its own until step 31, whose k loop copies every aligned float4 as one.
 */
#ifndef FP32_TILE_H
#define FP32_TILE_H

#include "gemm.h"

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
/* a thread's fragments of one k row as scalars: a[8] (its 2 x 4 rows), b[16] (its 4 x 4 columns) */
__device__ static __forceinline__ void t10_unpack(const float4 fa[2], const float4 fb[T10_NJ], float a[8],
                                                  float b[4 * T10_NJ])
{
#pragma unroll
  for (int h = 0; h < 2; ++h) { a[4 * h] = fa[h].x; a[4 * h + 1] = fa[h].y; a[4 * h + 2] = fa[h].z; a[4 * h + 3] = fa[h].w; }
#pragma unroll
  for (int j = 0; j < T10_NJ; ++j) { b[4 * j] = fb[j].x; b[4 * j + 1] = fb[j].y; b[4 * j + 2] = fb[j].z; b[4 * j + 3] = fb[j].w; }
}

/* k tiles [kt_begin, kt_end) of the tile at (m0, n0) added into acc.  gA and gB point at the tile's
 * first rows of A and first columns of B (k = 0); mleft and nleft are the rows and columns of C
 * left from the tile's corner; `fast_a`, `fast_b`: those operands are 16-byte aligned and the tile
 * is whole along m (A) or n (B), so only a ragged k tile predicates.  Ends with a barrier: the
 * shared tiles are free again. */
__device__ static __forceinline__ void t10_ktiles(float acc[8][4 * T10_NJ], float (*sA)[T10_BK][T10_BM],
                                                  float (*sB)[T10_BK][T10_LDB], const float *gA, int lda,
                                                  const float *gB, int ldb, int mleft, int nleft, int K,
                                                  int kt_begin, int kt_end, int fast_a, int fast_b)
{
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  int wm = 64 * (warp % 2), wn = 16 * T10_NJ * (warp / 2);   // the warp tile: (_2,_4) warps of (64,16*NJ)
  int lm = lane % 8, ln = lane / 8;                      // the lane: (_8,_4) lanes of (_4,_4) values
  int kfull = K / T10_BK;                                // k tiles with BK real k
  size_t a_step = (size_t)T10_BK * lda;
  gA += kt_begin * a_step;
  gB += (size_t)kt_begin * T10_BK;

  float4 ra[T10_NVA], rb[T10_NVB];
  int full = kt_begin < kfull;
  t10_load(ra, rb, gA, lda, gB, ldb, mleft, nleft, K - kt_begin * T10_BK, fast_a && full, fast_b && full);
  t10_store(sA[0], sB[0], ra, rb);
  __syncthreads();
  for (int kt = kt_begin; kt < kt_end; ++kt) {
    int cur = (kt - kt_begin) & 1;
    if (kt + 1 < kt_end) {                               // tile kt+1 travels into registers
      gA += a_step;
      gB += T10_BK;
      full = kt + 1 < kfull;
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
      t10_unpack(fa[p], fb[p], a, b);
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 4 * T10_NJ; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    if (kt + 1 < kt_end) t10_store(sA[cur ^ 1], sB[cur ^ 1], ra, rb);
    __syncthreads();
  }
}
// ANCHOR_END: fp32_tuned

/* ------------------------------------------------------------------------------------------------
 * Step 31's k loop: the same tile, threads and fragments as t10_ktiles; the k tiles travel by
 * cp.async into T31_STAGES stages of shared memory (dynamic: 48.5 KiB), three ahead of the one
 * being multiplied, and the copies of a k tile are issued one or two a k row, between the rows'
 * FMAs, not in a block at the start of the tile.
 * ---------------------------------------------------------------------------------------------- */
#define T31_STAGES 4
#define T31_STAGE_A (T10_BK * T10_BM)                  // floats of one stage of A: (8,128), m contiguous
#define T31_STAGE_B (T10_BK * T10_LDB)                 // of B: (8,256) transposed, rows padded to 260
#define T31_SMEM (T31_STAGES * (T31_STAGE_A + T31_STAGE_B) * (int)sizeof(float))

__device__ static __forceinline__ uint32_t t31_smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
/* a 16- or 4-byte copy global -> shared that bypasses the registers; only the first `bytes` are
 * read, the rest of the destination is zero (bytes = 0 reads nothing) */
__device__ static __forceinline__ void t31_cp16(uint32_t s, const float *g, int bytes)
{
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" :: "r"(s), "l"(g), "r"(bytes));
}
__device__ static __forceinline__ void t31_cp4(uint32_t s, const float *g, int bytes)
{
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" :: "r"(s), "l"(g), "r"(bytes));
}
__device__ static __forceinline__ void t31_commit(void) { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
/* all but the newest T31_STAGES - 2 groups have landed (this thread's copies) */
__device__ static __forceinline__ void t31_wait(void)
{
  asm volatile("cp.async.wait_group %0;\n" :: "n"(T31_STAGES - 2) : "memory");
}
__device__ static __forceinline__ void t31_wait_all(void) { asm volatile("cp.async.wait_group 0;\n" ::: "memory"); }

/* A by 4-byte copies (A not 16-byte aligned), measured on an H200 (07_gemm --versions 0,18 --shapes
 * 0, ms a call, two processes of each build): until this version each thread copied rows m4 .. m4 +
 * 3 (a warp's copy spanned 512 bytes) and read A's rows past the m edge at the last row inside, so
 * that in a last tile 1 to 35 rows deep, 93 to 127 of a column's 128 rows read one address.  Those
 * CTAs ran late, and Stream-K, which evens out k tiles and not time, waited for them: 4097^3 3.51
 * -> 3.03 (0.89 -> 1.03 of SGEMM), 1281 x 832 x 16192 1.09 -> 0.93, 1921 x 384 x 7360 0.379 ->
 * 0.328, 2057 x 1783 x 2153 0.403 -> 0.360, 786 x 1276 x 5102 0.287 -> 0.258.  Where the last tile
 * is 55 to 126 rows deep, 4 % faster to 3 % slower (3001 x 512 x 4001 0.285 -> 0.273; 877 x 981 x
 * 10471 0.396 -> 0.404, 1918 x 2667 x 2219 0.50 -> 0.51) with the test `ka < kleft && m < mleft`
 * in each copy; with that folded into ka4 (one test, as before), in a later pair of builds: 877 x
 * 981 x 10471 0.403 -> 0.397, 1918 x 2667 x 2219 0.503 -> 0.495, 1281 x 832 x 16192 0.928 ->
 * 0.911, 2057 x 1783 x 2153 0.360 -> 0.354, 4097^3 3.02 -> 2.97, 999^3 (split-K) 0.053 -> 0.054.
 * B's columns past the n edge zero-filled the same way cost 22-36 % at every shape tried (not
 * profiled), so B keeps its reads at the last column inside. */
// ANCHOR: t31_copy
/* The copies that k row r (0..7) of a k tile issues for the k tile three ahead, into the stage at
 * shared addresses da (A) and db (B).  Thread t copies
 *   A: rows m4 = 4 (t % 32) .. m4 + 3 of column ka = t / 32: one 16-byte copy at row 0 (a16: A
 *      16-byte aligned); else rows t % 32 + 32 j, j = 0..3, one 4-byte copy at rows 0, 2, 4 and 6,
 *      so that the 32 lanes of a warp copy 128 contiguous bytes;
 *   B: element kb = t % 8 of column n + 32 r, n = t / 8: one 4-byte copy a row, which lands
 *      transposed at sB[kb][n + 32 r] (the 8 x 4 lanes of a warp on 32 different banks).
 * No branch: A's rows past the m edge are zero-filled (the float4 that straddles it partly, a16),
 * from an address inside (4-byte copies: ka4[j] is ka, or 2^30 for a row past the edge, set once a
 * k loop, so that the copy's one test against kleft covers both); B's columns past the n edge are
 * read at the last column inside (such columns only feed columns of C that are never stored); k
 * past K or past the range (kleft <= k) is zero-filled (the copy's `bytes`). */
__device__ static __forceinline__ void t31_copy_row(int r, int a16, uint32_t da, uint32_t db, const float *pa,
                                                    const float *pb, int ldb, int m4, int mleft, int nleft,
                                                    int ka, int kb, int n, int kleft, const int ka4[4])
{
  if (a16 && r == 0)
    t31_cp16(da, pa + (m4 < mleft ? m4 : 0), ka < kleft ? 4 * min(max(mleft - m4, 0), 4) : 0);
  if (!a16 && r % 2 == 0) {                             // row lane + 32 j: a warp's copy is 128 bytes in a row
    int m = m4 / 4 + 32 * (r / 2);
    t31_cp4(da + 4 * (m - m4), pa + min(m, mleft - 1), ka4[r / 2] < kleft ? 4 : 0);
  }
  t31_cp4(db + 4 * 32 * r, pb + (size_t)min(n + 32 * r, nleft - 1) * ldb, kb < kleft ? 4 : 0);
}
// ANCHOR_END: t31_copy

// ANCHOR: t31_ktiles
/* a thread's fragments of one k row of a stage, from its first float of A (ra) and of B (rb) */
__device__ static __forceinline__ void t31_frags(float4 fa[2], float4 fb[T10_NJ], const float *ra, const float *rb)
{
#pragma unroll
  for (int h = 0; h < 2; ++h) fa[h] = *(const float4 *)(ra + 32 * h);
#pragma unroll
  for (int j = 0; j < T10_NJ; ++j) fb[j] = *(const float4 *)(rb + 16 * j);
}

/* k tiles [kt_begin, kt_end) of the tile whose first row of A and first column of B are gA, gB,
 * added into acc (t10_ktiles's contract).  smem: T31_SMEM bytes.  a16: a literal, A may go by 16
 * bytes.  Ends with a barrier after the last read of shared memory and no copy in flight. */
__device__ static __forceinline__ void t31_ktiles(int a16, float acc[8][4 * T10_NJ], float *smem, const float *gA,
                                                  int lda, const float *gB, int ldb, int mleft, int nleft, int K,
                                                  int kt_begin, int kt_end)
{
  int t = threadIdx.x, warp = t / 32, lane = t % 32;
  int wm = 64 * (warp % 2), wn = 16 * T10_NJ * (warp / 2);   // t10_ktiles's warp and lane tiles
  int lm = lane % 8, ln = lane / 8;
  int m4 = 4 * (t % 32), ka = t / 32, kb = t % 8, n = t / 8;  // this thread's copies (t31_copy_row)
  int ka4[4];                                            // 4-byte copies: ka, or past any k where row j is past M
#pragma unroll
  for (int j = 0; j < 4; ++j) ka4[j] = m4 / 4 + 32 * j < mleft ? ka : 1 << 30;
  float *sA = smem, *sB = smem + T31_STAGES * T31_STAGE_A;
  uint32_t da0 = t31_smem_u32(sA + ka * T10_BM + m4), db0 = t31_smem_u32(sB + kb * T10_LDB + n);
  const float *pa = gA + (size_t)(kt_begin * T10_BK + ka) * lda;   // column ka of the k tile to copy
  const float *pb = gB + kt_begin * T10_BK + kb;                    // row kb of it, column 0
  size_t a_step = (size_t)T10_BK * lda;
  int kend = min(K, kt_end * T10_BK), kleft = kend - kt_begin * T10_BK;   // k left from the k tile to copy
  int nk = kt_end - kt_begin;

  for (int s = 0; s < T31_STAGES - 1; ++s) {            // the first S - 1 k tiles (zeros past the range)
#pragma unroll
    for (int r = 0; r < T10_BK; ++r)
      t31_copy_row(r, a16, da0 + s * T31_STAGE_A * 4, db0 + s * T31_STAGE_B * 4, pa, pb, ldb, m4, mleft, nleft, ka,
                   kb, n, kleft, ka4);
    t31_commit();
    pa += a_step, pb += T10_BK, kleft -= T10_BK;
  }
  t31_wait();
  __syncthreads();

  int rs = 0, ws = T31_STAGES - 1;                       // the stage read, the stage written
  const float *ra = sA + wm + 4 * lm, *rb = sB + wn + 4 * ln;
  float4 fa[2][2], fb[2][T10_NJ];                        // [row k parity][block], as in t10_ktiles
  t31_frags(fa[0], fb[0], ra, rb);
  for (int it = 0; it < nk; ++it) {
#pragma unroll
    for (int k = 0; k < T10_BK; ++k) {
      int p = k & 1;
      t31_copy_row(k, a16, da0 + ws * T31_STAGE_A * 4, db0 + ws * T31_STAGE_B * 4, pa, pb, ldb, m4, mleft, nleft, ka,
                   kb, n, kleft, ka4);
      if (k + 1 < T10_BK) {                              // row k+1 loads while row k multiplies
        t31_frags(fa[p ^ 1], fb[p ^ 1], ra + (k + 1) * T10_BM, rb + (k + 1) * T10_LDB);
      } else {                                           // the last row: on to the next stage
        t31_commit();
        pa += a_step, pb += T10_BK, kleft -= T10_BK;
        t31_wait();                                      // the next k tile has landed ...
        __syncthreads();                                 // ... for all threads, and the stage read last is free
        rs = rs + 1 == T31_STAGES ? 0 : rs + 1;
        ws = ws + 1 == T31_STAGES ? 0 : ws + 1;
        ra = sA + rs * T31_STAGE_A + wm + 4 * lm;
        rb = sB + rs * T31_STAGE_B + wn + 4 * ln;
        t31_frags(fa[p ^ 1], fb[p ^ 1], ra, rb);
      }
      float a[8], b[4 * T10_NJ];
      t10_unpack(fa[p], fb[p], a, b);
      // the row's 128 FMAs column by column, up and down the 8 rows in turn (step 10 goes row by
      // row): the order in which ptxas's registers came out with fewer bank conflicts (31_fp32_cp_async.cu)
#pragma unroll
      for (int j = 0; j < 4 * T10_NJ; ++j)
#pragma unroll
        for (int ii = 0; ii < 8; ++ii) {
          int i = j % 2 ? 7 - ii : ii;
          acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
    }
  }
  t31_wait_all();
  __syncthreads();
}
// ANCHOR_END: t31_ktiles

/* C = alpha * v + beta * C for rows m .. m+3 of column n of the tile at (m0, n0): one float4 where
 * `fc` (a whole tile of a 16-byte aligned C), else element by element inside M and N */
__device__ static __forceinline__ void t10_store4(const float v[4], float alpha, float beta, float *C, int ldc, int m0,
                                                  int n0, int m, int n, int mleft, int nleft, int fc)
{
  float *c = C + m0 + m + (size_t)(n0 + n) * ldc;
  if (fc) {
    float4 o = make_float4(alpha * v[0], alpha * v[1], alpha * v[2], alpha * v[3]);
    if (beta != 0.0f) {
      float4 old = *(const float4 *)c;
      o.x += beta * old.x; o.y += beta * old.y; o.z += beta * old.z; o.w += beta * old.w;
    }
    *(float4 *)c = o;
  } else if (n < nleft) {
#pragma unroll
    for (int r = 0; r < 4; ++r)
      if (m + r < mleft) c[r] = gemm_epilogue(v[r], alpha, beta, c + r);
  }
}

/* The epilogue: thread (lm,ln) of the warp owns rows wm + 4*lm + {0..3, 32..35} and columns
 * wn + 4*ln + {0..3, 16..19, ...}; a column's 4 rows leave as one float4 (8 lanes: 128 bytes).
 * `c_vec`: C is 16-byte aligned; a whole tile then stores float4s, an edge tile predicates. */
__device__ static __forceinline__ void t10_epilogue(const float acc[8][4 * T10_NJ], float alpha, float beta, float *C,
                                                    int ldc, int m0, int n0, int mleft, int nleft, int c_vec)
{
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  int wm = 64 * (warp % 2), wn = 16 * T10_NJ * (warp / 2), lm = lane % 8, ln = lane / 8;
  int fc = c_vec && mleft >= T10_BM && nleft >= T10_BN;
#pragma unroll
  for (int j = 0; j < 4 * T10_NJ; ++j) {
    int n = wn + 4 * ln + (j % 4) + 16 * (j / 4);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      float v[4] = { acc[4 * h][j], acc[4 * h + 1][j], acc[4 * h + 2][j], acc[4 * h + 3][j] };
      t10_store4(v, alpha, beta, C, ldc, m0, n0, wm + 4 * lm + 32 * h, n, mleft, nleft, fc);
    }
  }
}

#endif
