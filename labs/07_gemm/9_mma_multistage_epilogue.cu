/* Step 9 -- a deeper pipeline that hides its own latencies, a grouped CTA order and a staged
 * write-out of C (bf16, mma.sync).
 *
 * Same (128,256) CTA tile as step 8, (_2,_4) warps of (64,64), BK = 32, same swizzles.  What changes:
 *   - the fragments of the next k16 group are loaded while the mma of this one run (register
 *     double buffering): the next group's B first (every row of mma reads all of B), then A row
 *     by row, each ldmatrix right after the last mma that reads the fragment it replaces (so the
 *     next A needs few registers beyond the current one).  The barrier moves to the middle of the tile
 *     (after group 0): by then every warp holds all of this tile's fragments, so the barrier both
 *     publishes tile kt+1 and frees tile kt-1's stage; one barrier per tile, as before.
 *   - 5 stages instead of 4 (120 KiB): the copies of tile kt+4 are issued among tile kt's mma.
 *   - the copies need no per-chunk test in the main loop: a whole tile inside A and B goes by
 *     plain cp.async from addresses that are a base plus constants (the stage, the chunk); a tile
 *     at an edge of M, N or K uses cp.async's src-size (only the bytes inside are read, the rest
 *     of the 16 are zeros), with the edges of this thread's chunks packed once into two registers.
 *     No element-by-element loads remain: the launcher's padding (step 8) already makes A and B
 *     aligned, and a ragged chunk (M or K not a multiple of 8) reads just its inside part.
 *   - a thread copies chunks 8 apart in one column of A (adjacent threads: adjacent 16 bytes), so
 *     its A addresses differ by constants, not by multiples of lda.
 *   - the ldmatrix offsets of a lane are computed once (4 for A, 2 for B); in the loop an address
 *     is the stage's base plus one of them plus a constant.
 *   - a one-dimensional grid, walked in groups of 16 tile rows, column by column inside a group
 *     (the CTAs in flight share a few panels of B and a band of A), and C leaves through shared
 *     memory in two halves of 128 columns, staged column-major with a padded leading dimension of
 *     132, then written as whole 512-byte columns with 16-byte stores (predicated per element at
 *     an edge or with an unaligned C; with beta == 0, C is never read).
 * Registers: 226 (sm_80), 230 (sm_90); no spills, no stack frame; one CTA of 256 threads per SM.
 * Tried and not kept (H200, one run, cuBLAS in the same run; two identical builds differed by up
 * to 0.03 at 8192^3, so only larger gaps count):
 *   BK = 64 with 3 stages: 0.54-0.56 at 4096^3, 0.57-0.59 at 8192^3, 12% slower at 4097^3 (254
 *   registers); BK = 64 with 4 stages: no better; BK = 32 with 4 stages: 0.55-0.56 at 4096^3,
 *   about 6% slower at 4095^3 and 4097^3; 6 stages (C in one pass): no better; a (128,128) tile with 4
 *   warps and 2 CTAs per SM (BK = 32, 4 stages; BK = 64, 3 stages): 0.49-0.56, more L2 traffic per
 *   flop, though 0.41 instead of 0.32 at 1000^3 where (128,256) tiles leave SMs idle; cp.async's
 *   L2::128B prefetch hint, and groups of 8 or 32 tile rows instead of 16: within the noise.
 * Measured (H200, cuBLAS and the old step 9 in the same run): 382 TFLOP/s at 4096^3, 0.579 of
 *   cuBLAS bf16 (old step 9: 0.427); 0.605 at 8192^3 (0.450); 2.09x cuBLAS at 4095^3 and 1.89x
 *   at 4097^3 (1.32x, 1.27x); 0.33 at 1000^3 (0.21).  A second timing pass: 0.574 and 0.594.
 */
#include "mma_bf16.h"
#include "labkit.h"

#define S9_BM 128
#define S9_BN 256
#define S9_BK 32
#define S9_STAGES 5
#define S9_THREADS 256                 // (_2,_4) warps of (64,64)
#define S9_GROUP 16                    // tile rows per group of the CTA order
#define S9_KG (S9_BK / 16)             // k16 groups per k tile
#define S9_STAGE_A (S9_BK * S9_BM)     // bf16 elements of one stage of A
#define S9_STAGE_B (S9_BN * S9_BK)
#define S9_SMEM (S9_STAGES * (S9_STAGE_A + S9_STAGE_B) * 2)
#define S9_LDC (S9_BM + 4)             // the staged C tile: (BM,BN):(1,LDC) fp32
#define S9_PASSES 2                    // C leaves in two slices of 128 columns
#if S9_BN / S9_PASSES * S9_LDC * 4 > S9_SMEM
#error "a slice of the staged C tile must fit in the pipeline's shared memory"
#endif
#define S9_A_PER (S9_BM * S9_BK / 8 / S9_THREADS)   // 16-byte chunks of A per thread and k tile: 2
#define S9_B_PER (S9_BN * S9_BK / 8 / S9_THREADS)   // and of B: 4
#define S9_A_TPC (S9_THREADS / S9_BK)               // threads per column of the A tile: 8
#define S9_B_ROWS (S9_THREADS / (S9_BK / 8))        // columns of B covered by one pass of the threads: 64

/* Step 8's swizzles: sA (BK,BM) takes chunk c of row k to c ^ (k % 8); sB (BN,BK), rows of 64
 * bytes, takes chunk c of row n to c ^ ((n/2) % 4). */
__device__ static inline int s9_swz_a(int k, int m) { return k * S9_BM + (((m / 8) ^ (k % 8)) * 8) + m % 8; }
__device__ static inline int s9_swz_b(int n, int k) { return n * S9_BK + (((k / 8) ^ ((n / 2) % 4)) * 8) + k % 8; }

/* ldmatrix and cp.async on 32-bit shared addresses (mma_bf16.h's take pointers) */
__device__ static inline void s9_ldsm(uint32_t r[4], uint32_t a)
{
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
}
__device__ static inline void s9_ldsm_t(uint32_t r[4], uint32_t a)
{
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
}
__device__ static inline void s9_cp16(uint32_t s, const void *g)
{
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(s), "l"(g));
}

/* A 16-byte copy that reads only its first `bytes` bytes (0..16) and fills the rest with zeros. */
__device__ static inline void s9_cp16z(uint32_t s, const void *g, int bytes)
{
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" :: "r"(s), "l"(g), "r"(bytes));
}

/* The copies of one k tile (k0) into the stage at shared addresses sa, sb (this thread's first
 * chunk); ga, gb: this thread's first chunk of the tile in global memory.  A thread copies the
 * chunks (am + 8*A_TPC*i, ak) of A, i < A_PER, and (bk, bn + B_ROWS*i) of B, i < B_PER.
 * full: the whole tile lies inside A and B, every chunk is copied whole, with no test.
 * Otherwise each chunk reads only what lies inside (src-size: the rest of it is zero), from an
 * address that is inside; a chunk wholly outside reads nothing (and points at A or B itself). */
__device__ static inline void s9_load_tile(uint32_t sa, uint32_t wa, uint32_t sb, const bf16 *ga, const bf16 *gb, int full,
                                          const bf16 *A, const bf16 *B, int ldb, uint32_t ea, uint32_t eb, int ka_left, int kb_left)
{
  if (full) {
#pragma unroll
    for (int i = 0; i < S9_A_PER; ++i) s9_cp16(sa + (wa ^ (i * S9_A_TPC * 16)), ga + i * S9_A_TPC * 8);
#pragma unroll
    for (int i = 0; i < S9_B_PER; ++i) s9_cp16(sb + i * S9_B_ROWS * S9_BK * 2, gb + (size_t)i * S9_B_ROWS * ldb);
    return;
  }
  /* ea: rows (0..8) inside of each A chunk, 4 bits each; eb: bit i, B chunk i's column is inside;
   * ka_left, kb_left: k indices from this thread's chunks of A, of B to the edge */
#pragma unroll
  for (int i = 0; i < S9_A_PER; ++i) {
    int bytes = ka_left > 0 ? 2 * (int)((ea >> 4 * i) & 15) : 0;
    s9_cp16z(sa + (wa ^ (i * S9_A_TPC * 16)), bytes ? (const void *)(ga + i * S9_A_TPC * 8) : (const void *)A, bytes);
  }
  int kbytes = 2 * min(max(kb_left, 0), 8);
#pragma unroll
  for (int i = 0; i < S9_B_PER; ++i) {
    int bytes = (eb >> i) & 1 ? kbytes : 0;
    s9_cp16z(sb + i * S9_B_ROWS * S9_BK * 2, bytes ? (const void *)(gb + (size_t)i * S9_B_ROWS * ldb) : (const void *)B, bytes);
  }
}

/* The fragments of k16 group g of a warp's (64,64) tile, from the stage at a (A) and b (B):
 * A as 4 (m16,k16) by ldmatrix.trans, B as 8 (n8,k16).  aoff, boff: this lane's byte offsets. */
__device__ static inline void s9_load_frags(uint32_t fa[4][4], uint32_t fb[8][2], uint32_t a, uint32_t b,
                                            const uint32_t aoff[4], uint32_t boff, int g)
{
#pragma unroll
  for (int mi = 0; mi < 4; ++mi) s9_ldsm_t(fa[mi], a + aoff[mi] + g * 16 * S9_BM * 2);
#pragma unroll
  for (int p = 0; p < 4; ++p) {
    uint32_t r[4];
    s9_ldsm(r, b + boff + p * 16 * S9_BK * 2);
    fb[2 * p][0] = r[0]; fb[2 * p][1] = r[1]; fb[2 * p + 1][0] = r[2]; fb[2 * p + 1][1] = r[3];
  }
}

__global__ void __launch_bounds__(S9_THREADS, 1)
mma_multistage_kernel(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb,
                      float beta, float *C, int ldc, int c_vec)
{
  extern __shared__ __align__(128) unsigned char s9_smem[];
  uint32_t sA = smem_u32(s9_smem), sB = sA + S9_STAGES * S9_STAGE_A * 2;
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  /* the CTA order: groups of S9_GROUP tile rows, column by column inside a group */
  int tiles_m = (M + S9_BM - 1) / S9_BM, tiles_n = (N + S9_BN - 1) / S9_BN;
  int id = blockIdx.x, per_group = S9_GROUP * tiles_n, first = id / per_group * S9_GROUP;
  int rows = min(tiles_m - first, S9_GROUP);
  int tm = first + (id % per_group) % rows, tn = (id % per_group) / rows;
  int m0 = tm * S9_BM, n0 = tn * S9_BN;
  int wm = 64 * (warp % 2), wn = 64 * (warp / 2);       // (_2,_4) warps of (64,64)
  float acc[4][8][4] = {};                               // (m16 tile, n8 tile, fragment)
  int ktiles = (K + S9_BK - 1) / S9_BK;
  int inside = m0 + S9_BM <= M && n0 + S9_BN <= N;

  /* this thread's copies: chunks (am + 8*A_TPC*i, ak) of A and (bk, bn + B_ROWS*i) of B */
  int am = 8 * (tid % S9_A_TPC), ak = tid / S9_A_TPC;
  int bk = 8 * (tid % (S9_BK / 8)), bn = tid / (S9_BK / 8);
  uint32_t wa = 2 * s9_swz_a(ak, am), wb = 2 * s9_swz_b(bn, bk);   // B's swizzle is the same for every i
  const bf16 *ga = A + (m0 + am) + (size_t)ak * lda, *gb = B + bk + (size_t)(n0 + bn) * ldb;
  size_t ga_step = (size_t)S9_BK * lda;
  uint32_t ea = 0, eb = 0;                               // the edges, for s9_load_tile
#pragma unroll
  for (int i = 0; i < S9_A_PER; ++i) ea |= (uint32_t)min(max(M - m0 - am - 8 * S9_A_TPC * i, 0), 8) << 4 * i;
#pragma unroll
  for (int i = 0; i < S9_B_PER; ++i) eb |= (uint32_t)(N - n0 - bn > S9_B_ROWS * i) << i;

  /* this lane's ldmatrix rows: matrix j = lane/8, row i = lane%8 */
  int lj = lane / 8, li = lane % 8;
  uint32_t aoff[4], boff[S9_KG];
#pragma unroll
  for (int mi = 0; mi < 4; ++mi) aoff[mi] = 2 * s9_swz_a(li + 8 * (lj / 2), wm + 16 * mi + 8 * (lj % 2));
#pragma unroll
  for (int g = 0; g < S9_KG; ++g) boff[g] = 2 * s9_swz_b(wn + li + 8 * (lj / 2), 16 * g + 8 * (lj % 2));

  for (int s = 0; s < S9_STAGES - 1; ++s) {              // fill the pipe: tiles 0..STAGES-2
    if (s < ktiles) {
      s9_load_tile(sA + s * S9_STAGE_A * 2, wa, sB + s * S9_STAGE_B * 2 + wb, ga, gb, inside && K - s * S9_BK >= S9_BK,
                   A, B, ldb, ea, eb, K - s * S9_BK - ak, K - s * S9_BK - bk);
      ga += ga_step; gb += S9_BK;
    }
    cp_async_commit();
  }
  CP_ASYNC_WAIT(S9_STAGES - 2);
  __syncthreads();

  uint32_t fa[2][4][4], fb[2][8][2];                     // the fragments in hand, and the next group's
  int rs = 0, ws = S9_STAGES - 1;                        // the stage read, the stage written
  s9_load_frags(fa[0], fb[0], sA, sB, aoff, boff[0], 0);
  for (int kt = 0; kt < ktiles; ++kt) {
#pragma unroll
    for (int g = 0; g < S9_KG; ++g) {
      if (g == S9_KG - 1) rs = rs + 1 == S9_STAGES ? 0 : rs + 1;   // group 0 of the next tile, next stage
      int gn = (g + 1) % S9_KG;
      uint32_t (*ca)[4] = fa[g % 2], (*cb)[2] = fb[g % 2], (*na)[4] = fa[(g + 1) % 2], (*nb)[2] = fb[(g + 1) % 2];
      uint32_t a = sA + rs * S9_STAGE_A * 2 + gn * 16 * S9_BM * 2, b = sB + rs * S9_STAGE_B * 2 + boff[gn];
#pragma unroll
      for (int p = 0; p < 4; ++p) {                      // the next group's B first: every row of mma below reads all of B
        uint32_t r[4];
        s9_ldsm(r, b + p * 16 * S9_BK * 2);
        nb[2 * p][0] = r[0]; nb[2 * p][1] = r[1]; nb[2 * p + 1][0] = r[2]; nb[2 * p + 1][1] = r[3];
      }
#pragma unroll
      for (int mi = 0; mi < 4; ++mi) {
#pragma unroll
        for (int n = 0; n < 8; ++n) {
          int ni = mi % 2 ? 7 - n : n;                   // serpentine: one B fragment reused across the turn
          mma_bf16_16816(acc[mi][ni], ca[mi], cb[ni]);
        }
        s9_ldsm_t(na[mi], a + aoff[mi]);                 // the next group's A row mi, once this row is done
        if (g == 0 && mi == 1) {                         // the copies of tile kt + STAGES - 1, into the stage freed by the last barrier
          int next = kt + S9_STAGES - 1;
          if (next < ktiles) {
            s9_load_tile(sA + ws * S9_STAGE_A * 2, wa, sB + ws * S9_STAGE_B * 2 + wb, ga, gb, inside && K - next * S9_BK >= S9_BK,
                         A, B, ldb, ea, eb, K - next * S9_BK - ak, K - next * S9_BK - bk);
            ga += ga_step; gb += S9_BK;
          }
          cp_async_commit();
          ws = ws + 1 == S9_STAGES ? 0 : ws + 1;
        }
      }
      if (g == S9_KG - 2) {                              // tile kt+1 has landed; every warp is past its reads of tile kt-1's stage
        CP_ASYNC_WAIT(S9_STAGES - 2);
        __syncthreads();
      }
    }
  }
  CP_ASYNC_WAIT(0);
  __syncthreads();                                       // every warp is done with the pipeline's buffers

  /* C in two slices of 128 columns: the warps of the slice stage their fragments (c0,c1
   * at (lane/4, 2*(lane%4) + {0,1}), c2,c3 eight rows below), then all warps write it out */
  float *sC = (float *)s9_smem;
  int fc = c_vec && m0 + S9_BM <= M && n0 + S9_BN <= N;
#pragma unroll 1
  for (int h = 0; h < S9_PASSES; ++h) {
    if (wn / (S9_BN / S9_PASSES) == h) {
#pragma unroll
      for (int mi = 0; mi < 4; ++mi)
#pragma unroll
        for (int ni = 0; ni < 8; ++ni)
#pragma unroll
          for (int e = 0; e < 4; ++e)
            sC[(wn - S9_BN / S9_PASSES * h + 8 * ni + 2 * (lane % 4) + e % 2) * S9_LDC + wm + 16 * mi + lane / 4 + 8 * (e / 2)] = acc[mi][ni][e];
    }
    __syncthreads();
    /* write out: warp w takes columns w, w+8, ... of the slice; a lane four consecutive rows */
    for (int j = warp; j < S9_BN / S9_PASSES; j += S9_THREADS / 32) {
      int n = S9_BN / S9_PASSES * h + j;
      float4 v = *(const float4 *)&sC[j * S9_LDC + 4 * lane];
      float *c = C + m0 + 4 * lane + (size_t)(n0 + n) * ldc;
      if (fc) {
        v.x *= alpha; v.y *= alpha; v.z *= alpha; v.w *= alpha;
        if (beta != 0.0f) {
          float4 o = *(const float4 *)c;
          v.x += beta * o.x; v.y += beta * o.y; v.z += beta * o.z; v.w += beta * o.w;
        }
        *(float4 *)c = v;
      } else if (n0 + n < N) {
        float w[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
        for (int r = 0; r < 4; ++r)
          if (m0 + 4 * lane + r < M) c[r] = gemm_epilogue(w[r], alpha, beta, c + r);
      }
    }
    __syncthreads();
  }
}


void gemm_9_mma_multistage_epilogue(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb,
                                    float beta, float *C, int ldc)
{
  static int configured = 0;
  if (!configured) {
    LK_CHECK(cudaFuncSetAttribute(mma_multistage_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, S9_SMEM));
    configured = 1;
  }
  /* the kernel copies A and B by 16-byte chunks only: an unaligned operand goes through a padded copy */
  if (!gemm_aligned16(A, lda, 2)) A = gemm_pad_bf16(0, A, &lda, M, K);
  if (!gemm_aligned16(B, ldb, 2)) B = gemm_pad_bf16(1, B, &ldb, K, N);
  int tiles = ((M + S9_BM - 1) / S9_BM) * ((N + S9_BN - 1) / S9_BN);
  mma_multistage_kernel<<<tiles, S9_THREADS, S9_SMEM>>>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, gemm_aligned16(C, ldc, 4));
  LK_LAUNCH();
}
