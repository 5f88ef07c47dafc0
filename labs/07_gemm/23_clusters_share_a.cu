/* Step 23 -- clusters of 2 along n that share A: step 14's kernel with the cluster turned.
 *
 * What changes from step 14: the two CTAs of a cluster compute horizontally adjacent tiles (m, 2c)
 * and (m, 2c+1), so they need the same (128,64) A slice at every k tile.  CTA r loads A's box r
 * (64 m, 64 k) and multicasts it to both; each loads its whole (64,256) B slice.  The scheduler
 * counts work in clusters of 1 x 2 and the grid is (1, 2, P), clusters along y; everything else --
 * the coupled `empty` barriers, the relaxed remote arrive, the tile past N that the second CTA of
 * the last cluster column may meet -- is step 14's kernel (k14_cluster_multicast, whose share_a
 * argument picks the operand), with step 17's TMA-store epilogue where TMA may write C, as the
 * best path runs step 14's clusters.
 *
 * What it is for: A's columns off 128-byte lines.  A is (M,K) with m contiguous, and a TMA box of
 * A is 64 rows (one per k) of 128 bytes; where lda is a multiple of 8 (TMA reads A unpadded) but
 * not of 64, most of those rows lie across two cache lines.  Sharing A halves the rows of A each
 * CTA asks L2 for, as step 14's clusters do for B where ldb is off lines (hopper.cu, off_lines).
 *
 * Measured (H100 80GB HBM3, ratio to cuBLAS in the same run; in brackets step 17's launcher, the
 * best path before this step, in the same run: whole (128,256) tiles, Stream-K or (192,192) tiles
 * by its rules).  Two runs:
 *   8200 x 8192 x 4096    1.004, 0.956 (0.951, 0.881)    8200 x 8200 x 8192   0.920, 0.945 (0.798, 0.842)
 *   10000 x 8192 x 2048   0.984, 1.004 (0.949, 0.974)    6000 x 6144 x 4096   0.935, 0.975 (0.922, 0.960)
 *   and in the second run 12000 x 12288 x 4096 1.016 (0.976), 4040 x 4096 x 4096 0.998 (0.948),
 *   8200 x 8192 x 1024 0.994 (0.941); but 5000 x 5000 x 4096, 6.06 waves, 0.834 against Stream-K's
 *   0.908, and so the best path's rule weighs the last wave (hopper.cu, share_a_pays).  In two
 *   more runs, against step 22 itself (the best path's choice before): 8200 x 8200 x 8192 0.921,
 *   0.924 (0.796, 0.807), 12000 x 12288 x 4096 0.998, 0.977 (0.941, 0.968).
 * Where A lies on lines the same clusters gained nothing measurable over step 17's launcher:
 *   within 2.2% either way at 8192^3, 8192 x 4096 x 4096, 16384 x 8192 x 1024, 8192 x 8192 x 1024 and
 *   x 2048, 4096 x 8192 x 1024, 4096 x 4096 x 2048, and 0.926 and 0.996 against 0.966 and 0.989
 *   at 4096^3.  Where both operands are off lines, sharing B is the better choice: at 6000^3,
 *   7000^3, 10000^3 and 9000 x 9000 x 4104 this step read 0.72-0.93, step 14's clusters 0.88-1.13.
 * Tried and not kept: clusters of 2 x 2 sharing both operands (each CTA loads one box of A for its
 *   cluster row and one of B for its column: 24 KiB a k tile from L2).  Only 30 clusters of 4 run at
 *   once on an H200 (120 of 132 SMs), and at 15 shapes, 11 with both operands off lines, the best
 *   path was 3-45% faster (H200, one process; 5000^3 0.878 of cuBLAS against 0.850).
 */
#include "hopper.h"
#include "labkit.h"

// ANCHOR: launcher
void gemm_23_clusters_share_a(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb,
                              float beta, float *C, int ldc)
{
  if (!gh_persistent_pays(M, N)) {                       // as steps 13 and 14: few tiles per SM, step 12
    gemm_12_warp_specialized(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  if (!gh_clusters(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, 1, 1))   // C by TMA stores where it may,
    gh_clusters(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, 0, 1);       // else from the registers
}
// ANCHOR_END: launcher
