/* pad.cu -- padded copies of an operand whose leading dimension breaks the 16-byte rule.
 *
 * Steps 8 and 9 copy 16-byte chunks with cp.async, and steps 11-14 read through TMA: both need
 * every column of A and B to start 16-byte aligned, i.e. ld a multiple of 8 bf16.  When it is not
 * (4095, 4097, ...), the launcher copies the operand once into a buffer whose leading dimension is
 * rows rounded up to 8 (cudaMemcpy2DAsync, one pass over the operand) and runs on the copy; the
 * padding rows are never read.  One buffer per operand, kept and grown between calls; the copies
 * and the kernels that read them are ordered on the default stream.
 */
#include "gemm.h"
#include "labkit.h"

const bf16 *gemm_pad_bf16(int which, const bf16 *X, int *ld, int rows, int cols)
{
  static void *buf[2];
  static size_t cap[2];
  int ldp = (rows + 7) / 8 * 8;
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
