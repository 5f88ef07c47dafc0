/* pad.cu -- padded copies of an operand whose leading dimension breaks the 16-byte rule.
 *
 * Steps 8 and 9 copy 16-byte chunks with cp.async, and steps 11-14 read through TMA: both need
 * every column of A and B to start 16-byte aligned, i.e. ld a multiple of 8 bf16.  When it is not
 * (4095, 4097, ...), the launcher copies the operand once into a buffer whose leading dimension is
 * rows rounded up to 64 (cudaMemcpy2DAsync, one pass over the operand) and runs on the copy; the
 * padding rows are never read.  One buffer per operand, kept and grown between calls; the copies
 * and the kernels that read them are ordered on the default stream.
 *
 * Why 64 and not 8: with rows rounded up to 8, 4097 became 4104, and every column of the copy
 * started 16 bytes further into a 128-byte line than the one before, so most 128-byte rows of a
 * TMA box lay across two lines.  Measured (H100): 4097^3 through step 17 at 284 TFLOP/s with
 * ld 4104, 404 with ld 4160 (2.12x -> 3.10x of cuBLAS); 4096 x 4096 x 4097 at 405 -> 534.  The
 * same costs a caller whose own leading dimension is a multiple of 8 but not of 64: 4104^3 runs at
 * 0.59 of cuBLAS.  Copying such operands too was measured and not kept: 4104^3 0.59 -> 0.62, but
 * 2000^3 (ld 2000) 0.985 -> 0.52 and 1000^3 0.86 -> 0.58, where the copy costs more than it saves.
 * One case came back later (gemm_pad_pair_bf16 below, both operands in one launch): where the best
 * path would run step 16's (128,128) tiles with both leading dimensions 8 more than a multiple of 16
 * (1160, 1400, ...), so that every other column starts inside a 32-byte sector; hopper.cu's
 * gh_pad_pays has the measurements.
 */
#include "gemm.h"
#include "labkit.h"

const bf16 *gemm_pad_bf16(int which, const bf16 *X, int *ld, int rows, int cols)
{
  static void *buf[2];
  static size_t cap[2];
  int ldp = (rows + 63) / 64 * 64;
  size_t bytes = (size_t)ldp * cols * 2;
  if (bytes > cap[which]) {
    if (buf[which]) LK_CHECK(cudaFree(buf[which]));
    LK_CHECK(cudaMalloc(&buf[which], bytes));
    cap[which] = bytes;
  }
  LK_CHECK(cudaMemcpy2DAsync(buf[which], (size_t)ldp * 2, X, (size_t)*ld * 2, (size_t)rows * 2, cols,
                             cudaMemcpyDeviceToDevice, 0));
  *ld = ldp;
  return (const bf16 *)buf[which];
}

/* Both operands at once, where their columns are 16-byte aligned but start off 128-byte lines (the
 * best path asks for it, gh_pad_pays in hopper.cu): one CTA a column, of A for the first K CTAs, of
 * B for the next N, copied in 16-byte chunks.  One launch in place of two cudaMemcpy2DAsync calls,
 * which were slower than no copy at every shape tried (hopper.cu's gh_pad_pays). */
// ANCHOR: pad_pair
__global__ void pad_pair_kernel(const bf16 *A, int lda, int arows, int acols, bf16 *Ap, int ldap, const bf16 *B,
                                int ldb, int brows, bf16 *Bp, int ldbp)
{
  int c = blockIdx.x, b = c >= acols, rows = b ? brows : arows;
  const bf16 *src = b ? B + (size_t)(c - acols) * ldb : A + (size_t)c * lda;
  bf16 *dst = b ? Bp + (size_t)(c - acols) * ldbp : Ap + (size_t)c * ldap;
  for (int r = threadIdx.x; r < rows / 8; r += blockDim.x) ((uint4 *)dst)[r] = ((const uint4 *)src)[r];
}
// ANCHOR_END: pad_pair

void gemm_pad_pair_bf16(const bf16 **A, int *lda, int M, int K, const bf16 **B, int *ldb, int N)
{
  static void *buf[2];
  static size_t cap[2];
  int ldap = (M + 63) / 64 * 64, ldbp = (K + 63) / 64 * 64;
  size_t bytes[2] = { (size_t)ldap * K * 2, (size_t)ldbp * N * 2 };
  for (int i = 0; i < 2; ++i)
    if (bytes[i] > cap[i]) {
      if (buf[i]) LK_CHECK(cudaFree(buf[i]));
      LK_CHECK(cudaMalloc(&buf[i], bytes[i]));
      cap[i] = bytes[i];
    }
  pad_pair_kernel<<<K + N, 128>>>(*A, *lda, M, K, (bf16 *)buf[0], ldap, *B, *ldb, K, (bf16 *)buf[1], ldbp);
  LK_LAUNCH();
  *A = (const bf16 *)buf[0];
  *lda = ldap;
  *B = (const bf16 *)buf[1];
  *ldb = ldbp;
}
