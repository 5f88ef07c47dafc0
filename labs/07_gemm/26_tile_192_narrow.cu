/* Step 26 -- (192,128) and (192,96) tiles: a few waves where (128,256) tiles leave SMs idle.
 *
 * What changes from step 21: the tile keeps step 21's 192 rows (three consumer warpgroups of 64) and
 * narrows along n, to 128 or 96 columns: each consumer runs one m64n128k16 or m64n96k16 chain (64 or
 * 48 of step 21's 96 accumulators), and B's tensor map reads boxes of (64 k, 128 n) or (64 k, 96 n).
 * The kernels are step 21's body compiled with bn = 128 and 96 (21_tile_192.cu, k26_tile_192x128
 * and k26_tile_192x96); the stages, barriers, staging buffers, persistent schedule and epilogue are
 * step 21's.
 *
 * What it is for: problems of a few waves, whose (128,256) tiles fill only part of the SMs in their
 * last wave.  1536^3 has 72 (128,256) tiles for 132 SMs, so 60 SMs idle for the whole run; it has
 * 128 tiles of (192,96).  1664^3 has 91 (128,256) tiles and 117 of (192,128).  2048 x 3072 has 192
 * (128,256) tiles, a second wave of 60, and 264 of (192,128), two full waves.  cuBLAS picks these
 * tile shapes at such sizes (--cublas-choice); this launcher picks the narrower tile whose waves
 * cost the least (gh_narrow_bn, hopper.cu), and the best path takes it where one wave of them, or
 * more in place of (128,256) tiles, beats its other routes (narrow_tiles_pay, hopper.cu).
 * Measured, the best path before this step -> after (ms; two runs on each GPU, build against build):
 *   H100 80GB HBM3: 1536^3 0.020 -> 0.015, 1536 x 1536 x 3072 0.035 -> 0.029, 1664^3 0.023 -> 0.018-0.019,
 *     768 x 3072 x 768 0.013 -> 0.010, 768 x 3072 x 4096 0.046 -> 0.039, 2048 x 1024 x 2048 0.021 ->
 *     0.018, 960 x 2880 x 1920 0.024 -> 0.020; level at 1408^3 and 1536 x 1536 x 8192.
 *   H200: the same shapes 0.020 -> 0.015, 0.035 -> 0.028, 0.022 -> 0.018, 0.013 -> 0.010, 0.042 ->
 *     0.038, 0.020 -> 0.018, 0.024 -> 0.020.
 * With the width forced, where the best path does not take it: 1536 x 1536 x 16384 0.142 ms against
 *   Stream-K's 0.133 (H200); 512^3 0.008 against step 20's 0.005 (H100); 1792^3, 1920^3 and
 *   2304 x 1536 x 1536, two waves of either width, 0.70-0.75 of cuBLAS against step 12's 0.99-1.05
 *   (H100); 3000 x 1000 x 3000, operands off 128-byte lines, 0.62 against step 14's clusters' 0.76.
 * More than one wave, in place of (128,256) tiles (H200, one run, ratio to cuBLAS, the route before
 *   in brackets): 2048 x 3072 x 1024 0.960 (step 12: 0.764), 2048 x 3072 x 4096 1.005 (step 15:
 *   0.889), 1536 x 4096 x 2048 0.951 (0.759), 3072 x 2048 x 1024 0.961 (0.760); hopper.cu lists all
 *   nine shapes.  In place of step 21's (192,192) tiles they lost, and are not taken.
 * From 3 (128,256) tiles an SM on, (192,128) tiles in place of step 17's whole tiles or step 15's
 *   Stream-K where their own estimate of persistent waves is 2% lower (narrow_persistent_pays,
 *   hopper.cu; H200, one run, ratio to cuBLAS, the route before in brackets): 4032 x 3136 x 1088
 *   0.984 (0.829), 6656 x 1856 x 640 0.974 (0.827), 2880 x 5504 x 5376 0.990 (0.903), 6144 x 4224 x
 *   4544 0.946 (step 15: 0.868); ahead at all 41 shapes below M = 10000 not used to fit the rule
 *   where it holds.  Where C is taller than wide there, the CTAs take the tiles along n, not m
 *   (gh_narrow_raster_m, hopper.cu): along m each wave read all of A again, and the tiles fell short
 *   of their estimate from M = 10000 up; along n, 15424 x 1600 x 2176 0.813 (step 17) -> 1.017,
 *   13184 x 2624 x 2496 0.872 -> 1.037, ahead at 15 of 17 tall shapes by 5-25%.
 */
#include "hopper.h"
#include "labkit.h"

void gemm_26_tile_192_narrow(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb,
                             float beta, float *C, int ldc)
{
  gh_tile_192(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, 0, gh_narrow_bn(M, N, K, gh_sm_count()));
}
