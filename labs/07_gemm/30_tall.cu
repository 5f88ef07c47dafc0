/* Step 30 -- (256,128) and (256,96) tiles, one a CTA: C of 65 to 128 columns and many rows.
 *
 * What changes from step 29: the tile is twice as tall.  Each of the two consumer warpgroups owns
 * 128 of its rows and runs two m64n128k16 (or m64n96k16) chains, 128 (or 96) accumulators a thread,
 * as step 13's consumers do across n; a stage is A's four (64 m, 64 k) boxes and one (64 k, bn) box
 * of B, 48 KiB (44 for bn = 96), four stages (five).  The kernels are step 29's body compiled with
 * bm = 256 (29_one_wave.cu, k30_tall and k30_tall_96); the whole k loop in each CTA, no fix-up, C by
 * TMA stores where it allows them, each consumer's two (64,bn) parts staged one after the other.
 *
 * What it is for: C of 65 to 128 columns and more (128,128) tiles than SMs -- one column of tiles,
 * A streamed from memory once, B (K x 128 at most) read from L2 by every CTA.  The route took
 * (128,256) or (192,192) tiles there, half or more of each tile past N: at 32768 x 128 x 8192 step
 * 14's clusters read 0.414 of cuBLAS (H200).  cuBLAS runs (256,128) tiles there, in pairs along m
 * (07_gemm --cublas-choice).  Measured on an H200, ratios to cuBLAS in one process:
 *   32768 x 128 x 8192: this step 0.938-0.944, step 29's (128,128) tiles in two waves 0.928-0.959,
 *   step 16 0.899-0.917, step 19 0.896-0.912; 65536 x 128 x 4096 0.957 (step 29 0.932, the route's
 *   step 22 0.769); 32768 x 128 x K for K = 2048, 4096, 8192: 1.016, 0.976, 0.944 (step 29 0.944,
 *   0.941, 0.928).  From K = 2048 to 16384 at M = 32768, cuBLAS took 0.131 ms more for each 8192 of
 *   K, this step 0.141; the rest of the time, 11 us for cuBLAS and 8 for this step, is the fill and
 *   the epilogue.  Under ncu (clocks as they were) both read A once from memory (539 MB), cuBLAS's
 *   kernel (nvjet_sm90_tss_256x128_64x4_2x1) in 128 us with DRAM 87.8% busy, this step's in 134 us
 *   at 83.8%, step 29's (128,128) tiles in 145 us at 79%: the k loops stream memory less densely,
 *   and why we have not found.
 * Which height: at 21 random shapes with N from 65 to 128 and M from 17472 to 126720 (one process,
 *   steps 26, 29 and this step at both widths timed at each), the tile height that puts the fewest
 *   rows of A on the busiest SM, ceil(ceil(M / bm) / 132) bm, the taller where they tie, was the
 *   fastest of the three at 18 and within 2.1% at the other 3; the route before read 0.25-0.84 of
 *   cuBLAS there (median 0.68), the height so chosen 0.75-1.02 (median 0.95).  So the best path
 *   takes this step, step 26's (192,bn) tiles or step 29's (128,128) ones by that count (hopper.cu,
 *   tall_c_step).  At 20 other random shapes of the class, held out, the best path before and after
 *   (two processes of each build, the last three shapes timed once after): faster at all 20, by
 *   17-252%, 70% on average; the median ratio to cuBLAS 0.640 -> 0.950, ahead of cuBLAS at 4
 *   (31936 x 80 x 12352 1.049, 60664 x 74 x 2688 1.209, 126656 x 65 x 5760 1.001, 29312 x 128 x
 *   9984 1.586 -- cuBLAS at 296-308 TFLOP/s there, this step at 469).  Between the two processes
 *   after, the rates moved by up to 5.6% (cuBLAS's with ours), the ratios by up to 2.4%.
 * Tried and not kept: (256,128) tiles in pairs along m that share B by multicast (each CTA loads half
 *   of B's box), as cuBLAS runs them: slower than alone at 13 of 15 shapes timed beside it, by up to
 *   3.3% (32768 x 128 x 8192 0.918-0.930 against 0.938-0.944), 0.3-3.5% faster at two that the
 *   route does not give this step (8192 x 128 x 8192, 32768 x 256 x 8192).  Not measured on an H100.
 */
#include "hopper.h"
#include "labkit.h"

void gemm_30_tall(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                  float *C, int ldc)
{
  gh_tall_tiles(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, gh_tall_bn(N));
}
