/* mma_bf16.h -- the tensor-core instructions of steps 7 and 8, each wrapped once (inline PTX).
 *
 *   ldsm_x4(r, p)        ldmatrix .x4: four 8x8 b16 matrices from shared memory, one row address per lane
 *   ldsm_x4_trans(r, p)  the same, each matrix transposed on the way (A arrives m-contiguous)
 *   mma_bf16_16816(d, a, b)   d(16x8, f32) += a(16x16, bf16, row) * b(16x8, bf16, col)
 *   cp_async16(s, g)     a 16-byte copy global -> shared that bypasses the registers (sm_80+)
 *   load_chunk8(...)     8 bf16 of one column as a 16-byte value, predicated element by element
 */
#ifndef MMA_BF16_H
#define MMA_BF16_H
#include "gemm.h"

__device__ static inline uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

__device__ static inline void ldsm_x4(uint32_t r[4], const void *p)
{
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_u32(p)));
}

__device__ static inline void ldsm_x4_trans(uint32_t r[4], const void *p)
{
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_u32(p)));
}

__device__ static inline void mma_bf16_16816(float d[4], const uint32_t a[4], const uint32_t b[2])
{
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__device__ static inline void cp_async16(void *s, const void *g)
{
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(smem_u32(s)), "l"(g));
}
__device__ static inline void cp_async_commit(void) { asm volatile("cp.async.commit_group;\n" ::); }
#define CP_ASYNC_WAIT(n) asm volatile("cp.async.wait_group %0;\n" :: "n"(n))

/* Elements r..r+7 of column c of a column-major matrix g (leading dimension ld), each 0 where
 * the identity-tensor test (row < rows_left, c < cols_left) fails: the slow, always-safe path. */
__device__ static inline uint4 load_chunk8(const bf16 *g, int ld, int r, int c, int rows_left, int cols_left)
{
  unsigned short v[8];
  const unsigned short *gs = (const unsigned short *)g;
#pragma unroll
  for (int j = 0; j < 8; ++j) v[j] = (r + j < rows_left && c < cols_left) ? gs[r + j + (size_t)c * ld] : 0;
  uint4 u;
  u.x = v[0] | (uint32_t)v[1] << 16; u.y = v[2] | (uint32_t)v[3] << 16;
  u.z = v[4] | (uint32_t)v[5] << 16; u.w = v[6] | (uint32_t)v[7] << 16;
  return u;
}

#endif
