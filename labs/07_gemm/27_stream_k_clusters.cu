/* Step 27 -- Stream-K in clusters: step 15's schedule over pairs of tiles, the pair's two CTAs
 * sharing B as in step 14.
 *
 * What changes from step 15: the schedule's tiles are pairs of vertically adjacent (128,256) tiles,
 * a (256,256) block of C, and its CTAs are clusters of 2 (gh_stream_k_schedule with bm = 256 and
 * the clusters resident at once as workers).  Both CTAs of cluster q walk q's units -- the same
 * tiles, the same k ranges, in the same order -- each on its own tile of the pair (rows 2 u.m +
 * rank), so at every k tile they need the same (64 k, 256 n) slice of B: each loads one of B's two
 * boxes and multicasts it to both, and loads its own A, as in step 14 (gh_load_ktile_shared,
 * hopper.h).  The stages' `empty` barriers count both CTAs' consumer warps (gh_release_pair).  The
 * fix-up is step 15's, per CTA: CTA 2q + rank leaves its partial sums in its own slot, and an owner
 * adds those of CTA 2(q - j) + rank, j = 1 .. peers, the same tile row of the earlier clusters.
 * Everything else is step 15's kernel (k15_stream_k, whose `cluster` argument turns this on) with
 * step 17's TMA-store epilogue.  A pair whose second tile lies past M loads zeros for it (TMA fills
 * them), multicasts its half of B all the same, and writes nothing.
 *
 * What it is for: B's columns off 128-byte lines (K a multiple of 8, not of 64; chapter 7, step
 * 23), where the best path ran step 14's clusters, whole tiles, because an unclustered kernel pays
 * for B in full (step 15 itself 0.64 of cuBLAS at 5000^3 on an H200, step 14's clusters 0.82).
 * Whole tiles leave the last wave part empty: 5000^3 has 400 pairs for 66 clusters, 6.06 waves, so
 * 7.  Stream-K shares the k tiles out evenly, as step 15 does where B is on lines.
 *
 * Measured, the best path before this step -> after (ms; each build in a run of its own beside
 * cuBLAS, the rule of hopper.cu, stream_k_clusters_pay, in place):
 *   H100 80GB HBM3: 2600 x 1800 x 5400 0.144 -> 0.119, 2000 x 3000 x 9000 0.215 -> 0.192,
 *     1700 x 2900 x 9800 0.250 -> 0.214, 1800 x 2600 x 7000 0.177 -> 0.159, 5120 x 5120 x 5000
 *     0.451 -> 0.433, 2000 x 3000 x 4000 0.099 -> 0.093, 5000 x 5000 x 3000 0.289 -> 0.282,
 *     1100 x 1100 x 12000 0.124 -> 0.120, 1600 x 3200 x 4400 0.098 -> 0.095, 3000 x 6000 x 5000
 *     0.343 -> 0.339, 5600 x 5600 x 7000 0.718 -> 0.714; 5000^3 0.459 -> 0.463.
 *   H200: the first eight 0.130 -> 0.117, 0.224 -> 0.192, 0.246 -> 0.210, 0.170 -> 0.133,
 *     0.449 -> 0.436, 0.093 -> 0.091, 0.291 -> 0.271, 0.120 -> 0.105; 5000^3 0.465 -> 0.441,
 *     3000 x 6000 x 5000 0.330 -> 0.322, 5600 x 5600 x 7000 0.718 -> 0.708; 1600 x 3200 x 4400
 *     0.092 -> 0.094.
 *   Six shapes chosen after the rule was set, H100 then H200: 1200 x 3600 x 5800 0.142 -> 0.104,
 *     0.127 -> 0.100; 2200 x 2200 x 3400 0.109 -> 0.076, 0.089 -> 0.070; 3500 x 2500 x 4200 0.212 ->
 *     0.168, 0.188 -> 0.165; 3800 x 3800 x 6600 0.370 -> 0.353, 0.338 -> 0.319; 3300 x 3300 x 7400
 *     0.321 -> 0.314, 0.312 -> 0.303; 6000 x 9000 x 3400 0.642 -> 0.628, 0.643 -> 0.624.
 *   And 16 random shapes from 1000 to 10000 (M, N, K) with B off lines where the rule takes this
 *   step (124 of 300 drawn): H100 11 faster by 4-24% (4126 x 7066 x 8312 1.157 -> 0.880 ms),
 *   3 level, 2 slower by 1.7% (7756 x 8119 x 4208) and 2.4% (9208 x 6134 x 5272); H200 9 faster by
 *   2-13%, 4 within 1%, 3 slower by 1.7% (7756 x 8119 x 4208), 2.5% (6724 x 2061 x 8104) and 3.7%
 *   (9330 x 1465 x 6696).
 * The rule's 3% came from runs of this step (version 27) beside the best path, 24 shapes on the
 *   H100 and 15 and 19 in two runs on the H200 (hopper.cu, stream_k_clusters_pay, has the shapes).
 * Where whole waves of pairs are nearly full, Stream-K's start and fix-up cost more than the last
 *   wave's idle share: 6000^3 (8.73 waves) 2-6% slower than step 14's clusters, 7000^3 (11.88)
 *   3-5%, 8000 x 8000 x 5000 (15.5) 2-3% (both GPUs); 2000 x 4000 x 3000 (1.94) 12-13%.  And below
 *   three waves where the route runs (192,192) tiles, step 24's clusters of them stay ahead:
 *   3000^3 0.108 ms against 0.094 (H200), 0.109 against 0.102 (H100).
 */
#include "hopper.h"
#include "labkit.h"

// ANCHOR: launcher
void gemm_27_stream_k_clusters(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb,
                               float beta, float *C, int ldc)
{
  gh_stream_k(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, 1, 1);   // step 15's kernel, in clusters
}
// ANCHOR_END: launcher
