/* Step 24 -- (192,192) tiles in clusters of 2 along m that share B.
 *
 * What changes from step 21: the two CTAs of a cluster compute vertically adjacent (192,192) tiles
 * (2c, n) and (2c+1, n), so they need the same (64 k, 192 n) slice of B at every k tile.  B's tensor
 * map now reads boxes of (64 k, 96 n); CTA r loads half r and multicasts it to both (mask 0x3), and
 * loads its own three boxes of A.  The halves land one after the other, 12 KiB apart, so the
 * stage holds the same 192 rows of 128 bytes as step 21's one box, and the consumers' m64n192k16
 * chain reads them unchanged.  As in step 14, a stage is written by two producers, so each
 * consumer warp releases it in both CTAs (gh_release_pair: 24 arrivals on each `empty` barrier);
 * the scheduler counts clusters of 2 x 1 (the grid is (2, 1, P)); the second CTA of the last
 * cluster row may meet a tile past M, loads zeros for it, multicasts its half of B all the same
 * and writes nothing.  Everything else is step 21's kernel (k21_tile_192, whose `cluster` argument
 * turns this on) and its epilogue.
 *
 * What it is for: B's columns off 128-byte lines (ldb a multiple of 8, not of 64) in fewer than
 * three waves.  There most 128-byte rows of B's boxes lie across two cache lines (chapter 7, step 23),
 * and sharing B halves the rows each CTA asks L2 for.  With 3 (128,256) tiles per SM or more the
 * best path already runs step 14's clusters for that (hopper.cu, off_lines); below, it ran step
 * 12's one launch of whole (128,256) tiles, or step 21's (192,192) tiles, and paid for B in full.
 * Now step 14's clusters take step 12's place and this step takes step 21's.
 *
 * Measured (ratio to cuBLAS in the same run; in brackets step 21 itself, which the best path ran
 * before at these shapes):
 *   H200: 3000^3 0.959 (0.783), 3000 x 3000 x 5000 0.947 (0.740), 3000 x 3000 x 2000 0.947 (0.913);
 *         through the best path, in a second run, 0.964, 0.956, 0.966 (0.789, 0.727, 0.937).
 *   H100, through the best path, two runs: 3000^3 0.873, 0.880 (0.679, 0.684), 3000 x 3000 x 5000
 *         0.842, 0.844 (0.632, 0.638), 3000 x 3000 x 2000 0.884 (0.832).
 * Where B lies on lines it gains nothing (H200: 3072 x 3072 x 4096 0.988 against 0.990, 6144 x 3072 x
 *   4096 0.979 against 0.988), as step 21 found for the same clusters; and where the best path
 *   already runs step 14's clusters it is not better (H100: 6000^3 0.885 against 0.879,
 *   9000 x 9000 x 4104 1.026 against 1.107).  So the best path runs it only in step 21's place below
 *   3 (128,256) tiles per SM.
 * Tried and not kept (chapter 7 gives the numbers): clusters of 2 x 2 (128,256) tiles that share
 *   both operands, each stage waiting on the consumers of three CTAs -- 2-3% ahead of the best path
 *   at 5000^3 and 6000 x 3000 x 2000, 8-23% behind at 6000^3, 3000^3, 1000 x 4000 x 3000,
 *   2000 x 8000 x 3000 and 8000 x 8000 x 2000 (H200, one run); and cuBLAS's (256,128) tile, two
 *   m64n128k16 chains per consumer warpgroup, alone 0.92-0.97 of cuBLAS against step 17's
 *   0.95-1.01, in clusters of 1 x 2 sharing A -1.5 to +3.2% against step 17 at 4096^3 (+2.2%),
 *   8192 x 8192 x 1024 (-1.5%), 8192^3, 12288 x 12288 x 4096 (+3.2%), 16384 x 8192 x 1024 and
 *   6144 x 6144 x 2048 (H100, one run).
 */
#include "hopper.h"
#include "labkit.h"

// ANCHOR: launcher
void gemm_24_clusters_192(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb,
                          float beta, float *C, int ldc)
{
  gh_tile_192(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, 1, GH192_BN);   // step 21's kernel, clustered
}
// ANCHOR_END: launcher
