/* Step 29 -- (128,96) or (128,128) tiles, one a CTA: one wave where larger tiles leave SMs idle.
 *
 * What changes from steps 20 and 26: between the problems whose (64,128) tiles fit on the SMs at
 * once (step 20) and those of several waves, there is a band of about one wave -- square C from
 * 1025 to 1248 -- where the best path ran step 26's (192,96) tiles or step 16's
 * (128,128) ones: 1152^3 has 72 tiles of (192,96) and 81 of (128,128), so 60 or 51 of 132 SMs
 * idle.  cuBLAS runs (128,96) or (96,128) tiles there (07_gemm --cublas-choice): 108 of them at
 * 1152^3.  Here a CTA computes one (128,96) tile with the whole k loop, as step 20's does, and
 * writes C: two consumer warpgroups, each one m64n96k16 chain over its 64 rows (48 accumulators
 * per thread), beside one producer warpgroup.  A stage is A's two (64 m, 64 k) boxes and one
 * (64 k, 96 n) box of B, 28 KiB; 8 stages (6 in the measurements before "8 stages" below).  A
 * stage is released by the 8 consumer warps.  Where C allows TMA stores, both consumers meet once
 * the k loop is done (named barrier 1, the 256 consumer threads), so that the stages are free, and
 * each stages its three 32-column slices there (gh_epilogue_tma_whole); else each writes C from its
 * registers.  No fix-up, no workspace, nothing persistent.
 *
 * Measured with 6 stages and plain waits (H200; ratios to cuBLAS in the same run, the route before
 * in brackets):
 *   1152^3 1.130 (step 26: 0.891), 1216^3 1.117 (0.901), 1280 x 1152 x 1152 1.010 (0.796),
 *   1024 x 1536 x 1024 1.261 (0.981), 1088^3 1.283 (1.022), 1200^3 1.085 (step 16: 0.760),
 *   1216 x 1216 x 2048 0.848 (0.698), 1152 x 1152 x 4096 0.743 (step 22: 0.676).  Where step
 *   20's CTAs fit it lost: 1000^3 0.792 (1.079), 1024^3 0.994 (1.237), 896^3 1.126 (1.357); and to
 *   step 19's split-K at 1024 x 1024 x 4096 (0.548 against 0.803).
 *   At 33 random shapes of the band (K from 288 to 3072, none used to set the rule), this step
 *   against the route before, in one process: faster at 32, by 0.6-58.6%, 30% on average, 6.7%
 *   slower at 1680 x 736 x 2552; the median ratio to cuBLAS 0.74 -> 0.90.  Above K = 3072 it lost
 *   at 16 of 23 shapes in two runs (1224 x 856 x 7840 0.583 -> 0.489): with a long k loop Stream-K's share of
 *   it on every SM pays for its fix-up, and the (128,96) tiles leave SMs idle for the whole loop.
 *   So the best path takes this step where its tiles fit at once, step 20's CTAs do not, and K <=
 *   3072 (hopper.cu, one_wave_pays).
 *   With both leading dimensions 8 more than a multiple of 16 (pad.cu's padded copies, hopper.cu,
 *   gh_pad_pays), the copies and this step against this step on the operands as they lie, at 16
 *   shapes: from K = 1176 on the copies were faster at all 10, by 3.3-16.0%; up to K = 872 slower at
 *   5 of 6.  So the copies come first where K >= 1024.
 *   Beyond K = 3072, where the route was step 16 (whole (128,128) tiles, one a CTA, of which one
 *   consumer warpgroup works), at 41 shapes of the band with K from 3144 to 7504: this step faster
 *   at 38, by 3.8-31.3%, 17% on average, 0.6-4.4% slower at three; the median ratio to cuBLAS 0.64
 *   -> 0.74.  So it takes step 16's place there at any K (hopper.cu, one_wave_any_k).
 *   Where the route beyond K = 3072 is Stream-K, operands off lines keep it.  With its descriptors
 *   stepped (hopper.h, gh_desc_add), at 40 random shapes of the band with K from 3240 to 15976, M
 *   and K multiples of 8 (so at 39 of them A or B off 128-byte lines; 20 routed to step 27, 12 to
 *   step 22, 8 to step 15), this step was faster than the route at 4, and 20-22% slower on average
 *   than steps 27 and 22 (1424 x 712 x 7912: 237 against 389 TFLOP/s).  With both on lines (M and K
 *   multiples of 64), at 40 others (20 routed to step 22, 20 to step 15), two runs: faster at 21,
 *   among them all 12 with K up to 7104, by 6.1-41.0% (704 x 2008 x 3456 0.750 -> 1.058 of cuBLAS;
 *   1152 x 1152 x 4096 0.685 -> 0.895 in another run), and from K = 8512 on faster at 9 of 28, by up
 *   to 43.8%, and slower at 19, by up to 15.9%.  Two more sets of random shapes on lines, held out
 *   (36 with K from 3136 to 8192, among them 1344 x 1152 x 8192 and 768 x 1536 x 8192, and 30 to
 *   check the bound the first set gave): faster than the route at all 45 with K up to 6656, by
 *   1.9-42.1%, 18% on average (median ratio to cuBLAS 0.73 -> 0.87), and at 13 of the 21 beyond,
 *   by -9.4 to +24.8% (1344 x 1152 x 8192 +6.7%, 768 x 1536 x 8192 -4.6%).  So with both operands
 *   on lines this step takes Stream-K's place too, up to K = 6656 (hopper.cu, one_wave_any_k).
 * 8 stages (224 KiB), each wait with a time hint: at seven shapes on lines, 6 stages against 8 with
 *   either wait, in one process, 8 stages and the hint 9.5-15.9% faster at five (1152^3, 1152 x
 *   1152 x 4096, 1536 x 1024 x 4096, 1280 x 1152 x 16384, 1088 x 1088 x 2048), 8 stages alone
 *   6.2-10.9% there, and both 2.4-3.0% slower at 912 x 1072 x 11352 and 1224 x 856 x 7840; the hint
 *   alone, with 6 stages, moved all seven by less than 4% either way (the lab keeps it for every
 *   kernel: hopper.h, gh_bar_try).  At 48
 *   random shapes of the band (24 with K up to 3072, 24 beyond), 1152^3 and 1216^3, this build
 *   against the last in two processes (our kernels' rates move by well under 1% between them):
 *   faster at 23, by up to 10.9% (512 x 2288 x 592; 1152^3 314 -> 345 TFLOP/s, 1216^3 362 -> 393),
 *   level at 2, slower at 25, by up to 3.8% (728 x 1912 x 2688), +1.7% on average.  With the rule
 *   for longer k loops above, the best path against the build before both, at 24 shapes beyond K =
 *   3072: faster at all 24, by 16.6-34.9% (median ratio to cuBLAS 0.60 -> 0.80).
 * (128,128) tiles where (128,96) ones take two waves: the band ended where the (128,96) tiles no
 *   longer fit at once, and beyond it, up to where (128,128) tiles do not, the route ran step 16's
 *   (128,128) tiles one a CTA (one consumer warpgroup of each at work), or step 26's, or Stream-K.
 *   This step's body, compiled for (128,128) tiles too (one m64n128k16 chain a consumer, 64
 *   accumulators a thread, 7 stages of 32 KiB), keeps both consumers at work.  First look, H200, a
 *   build with the width set to 128, against the route in one pair of processes: 2048 x 1024 x 4096
 *   0.83 -> 0.91 of cuBLAS (step 16), 2048 x 1024 x 2048 0.87 -> 0.98 (step 26), 1664 x 1152 x 3072
 *   1.06 -> 1.23; in the (128,96) band it lost to (128,96) tiles (1152 x 1152 x 4096: 0.72 against
 *   0.88).  At 32 random shapes of the new part of the band in two pairs: faster than step 16 at all
 *   18 whose operands the route did not copy, by 0.7-33.5% (more at short k loops); slower at the
 *   three it copied (lda and ldb 8 more than a multiple of 16), since this step ran on the operands
 *   as they lay; against step 26 (K up to 3072) -6.6% and +10.4% at two; against Stream-K (K from
 *   8640 up) -23.8 to +8.1%.  So the band is where (128,128)
 *   tiles fit at once and step 20's CTAs do not, the tiles (128,96) where those fit at once, else
 *   (128,128) (hopper.cu, one_wave_band and gh_one_wave_bn), with the rules as before: any route up
 *   to K = 3072, and beyond, step 16's place, Stream-K's on lines up to K = 6656, and step 26's too
 *   (against step 26 beyond K = 3072, at 12 random shapes, all in the new part: faster at 11, by
 *   6.1-24.7%, 2.3% slower at 3144 x 536 x 3544).  The best path with it against the build before,
 *   in two pairs of processes, at 39 shapes whose route it changed (33 random, held out; 1400^3,
 *   2048 x 1024 x 2048 and 1096 x 1776 x 456 of the route check; three whose operands the route
 *   copies): faster at 37, by 0.2-50.4%, 14% on average (median
 *   ratio to cuBLAS 0.78 -> 0.89; 1400^3 +10.1%, 2048 x 1024 x 2048 +9.2%), 3.1% and 2.0% slower at
 *   1464 x 1384 x 7992 and 1432 x 1320 x 6976 (step 16's place); at four shapes of the (128,96) band
 *   the kernel compiled twice ran as before (0.1-1.8% faster).
 * Pairs that share A, for the long k loops: beyond K = 3072, where the tiles along n are even in
 *   number, the CTAs come in clusters of 2 along n whose two tiles read the same rows of A; each
 *   loads one of A's two boxes and multicasts it to both (pair = 1 in the body above), so each asks
 *   L2 for 20 KiB a k tile in place of 28 (24 in place of 32 for (128,128) tiles).  Why: at 1536 x
 *   1024 x 8192 under ncu (H200, clocks as they were), cuBLAS's kernel, nvjet_sm90_tss_96x128_64x6_2x1,
 *   (96,128) tiles in pairs along m, took 60,342 cycles and this step alone 77,079, both with L2
 *   throughput at 66-67% of its peak: the same L2 rate, a third more bytes asked for here.  First
 *   look, H200, one process: faster than step 29 alone at all 9 band shapes with K from 4096 to
 *   12288 whose tiles along n pair up, by 0.4-12.6% (1152 x 1152 x 8192 +4.8%, 2048 x 1024 x 8192
 *   +12.6%); with an odd count, the grid padded with a CTA past N, at 2 of 3 (1088 x 1216 x 10240
 *   -6.8%); 4.2% and 0.4% slower at 1152^3 and 1216 x 1152 x 2048.  So the best path runs step 29
 *   in pairs wherever it runs step 29 with K > 3072 and tiles
 *   along n even, and takes step 15's place there too (hopper.cu, gh_one_wave_pairs).  Measured
 *   (H200, the best path against the build before, two pairs of processes), at 52 random shapes of
 *   the band with K from 3136 to 15904 and tiles along n even: in place of step 15 faster at 9 of
 *   11 (-3.9 to +19.4%), in place of step 29 alone at 17 of 19 (-2.0 to +42.3%), but in place of
 *   step 27 (B off lines) at 11 of 19 only (-24.8 to +28.0%; and at 3 more, where step 29's route
 *   made the padded copies and their route ran step 22, 12.5-30.3% slower), so step 27 keeps its
 *   shapes; and at 46 more, held out, K from 3328 to 16384, with the rule as it is: in place of step
 *   15 faster at 23 of 28 (-11.1 to +44.7%,
 *   +8.6% on average), of step 29 alone at 17 of 18 (-1.5 to +37.8%, +10.8% on average); their median
 *   ratio to cuBLAS 0.868 -> 0.981.  Step 22's exact splits keep their shapes (768 x 1536 x 16384:
 *   0.976 of cuBLAS, step 29 alone 0.750).
 * Tried and not kept: the stage's three boxes issued from three lanes of the producer's warp, not
 *   one: 16-28% slower with 6 or 8 stages at five of the seven shapes above.  Clusters that share
 *   both operands by multicast (2 x 1, 1 x 2, 2 x 2, 2 x 4 and 4 x 2 tiles, the grid padded to whole
 *   clusters): faster than this step at the longest k loops (912 x 1072 x 11352 0.470 -> 0.663 of
 *   cuBLAS in 2 x 2) but slower than the route there, and slower than this step at 1536 x 1024 x
 *   4096, whose 132 tiles make 66 pairs along m (0.832 -> 0.794), and wherever the padding needed a
 *   second wave.
 *   The pairs above, in their first form (6 stages, descriptors built afresh every k tile): beside
 *   this step alone, 10-20% faster at most of 22 shapes with K from 3120 to 15536, but slower than
 *   the route then at 16 of them (912 x 1072 x 11352: 0.572 of cuBLAS against the route's 0.820);
 *   at K up to 3072, 2-8% slower than this step alone (1216^3: 0.614 against 1.118, its tiles along
 *   n odd, so the pairs need 140 CTAs, a second wave).
 *   Pairs along m that share B, for the shapes whose tiles along n are odd in number and along m
 *   even: each CTA loads half of B's box (bn / 2 columns) and multicasts it, 22 KiB a k tile in
 *   place of 28.  H200, one process, 30 random band shapes with K from 3520 to 16384: faster than
 *   the route at 8 of the 13 where it is step 29 alone (-9.4 to +11.3%), at 5 of 7 where it is step
 *   15, at 2 of 7 where it is step 22 and at 1 of 3 where it is step 27 (-29.9 to +28.2% over all):
 *   no rule in it. */
#include "hopper.h"
#include "labkit.h"

#define S29_BM 128
#define S29_STAGES(bm, bn) ((bm) == 128 ? ((bn) == 96 ? 8 : 7) : ((bn) == 96 ? 5 : 4))   /* 8 of 28 KiB, 7 of 32;
                                                                                         5 of 44, 4 of 48 */
#define S29_STAGE_A(bm) ((bm) * GH_BK * 2)       /* A's bm / 64 (64 m, 64 k) boxes: 16 or 32 KiB */
#define S29_STAGE_B(bn) ((bn) * GH_BK * 2)      /* one (64 k, bn) box of B: 12 or 16 KiB */
#define S29_SMEM(bm, bn) (S29_STAGES(bm, bn) * (S29_STAGE_A(bm) + S29_STAGE_B(bn)) + 2 * S29_STAGES(bm, bn) * 8 + 1024)

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
/* the two consumer warpgroups, 256 threads, meet on named barrier 1 */
__device__ static inline void s29_consumers_sync(void) { asm volatile("bar.sync 1, 256;\n" ::: "memory"); }
/* the accumulators stay in registers across the asynchronous MMAs (as gh_fence_acc does for 128):
 * the first n, 48 or 64 */
__device__ static inline void s29_fence_acc(float d[64], int n)
{
#pragma unroll
  for (int i = 0; i < n; ++i) asm volatile("" : "+f"(d[i])::"memory");
}
#endif

// ANCHOR: kernel
/* The kernel's body for (bm,bn) tiles, bm = 128 or 256, bn = 96 or 128, constants in each kernel
 * below (as step 26 compiles step 21's body), so each compiles to fixed chains of MMAs: consumer c
 * owns rows bm/2 c .. bm/2 c + bm/2 - 1 of the tile, one m64n(bn)k16 chain for each 64 of them.
 * With `pair` (a constant too), the CTAs come in clusters of 2 along n, tiles (tm, 2j) and
 * (tm, 2j+1), which read the same rows of A: CTA r of the pair loads A's box r and multicasts it to
 * both, as step 23's clusters do, so each asks L2 for half of A; a stage is released by the 16
 * consumer warps of both (a stage of mine may be refilled only when the peer's consumers are done
 * with it too: the peer writes into it).  The launcher pairs only an even number of tiles along n,
 * so no CTA of a pair lies past N.  Step 30 compiles this body with bm = 256 (30_tall.cu). */
__device__ __forceinline__ static void
one_wave_body(const CUtensorMap *tA, const CUtensorMap *tB, const CUtensorMap *tC, int tma_c, int M, int N,
              int K, float alpha, float beta, float *C, int ldc, int bm, int bn, int pair)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ uint8_t raw[];
  const int S = S29_STAGES(bm, bn), SA = S29_STAGE_A(bm), SB = S29_STAGE_B(bn), chains = bm / 128;
  uint8_t *sa = (uint8_t *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023), *sb = sa + S * SA;
  uint64_t *full = (uint64_t *)(sb + S * SB), *empty = full + S;
  int tid = threadIdx.x, wg = tid / 128;
  int tm = blockIdx.x, tn = blockIdx.y;                  // local_tile(mC, (bm,bn), (tm,tn))
  int ktiles = (K + GH_BK - 1) / GH_BK;
  if (tid == 0) {
    gh_tma_prefetch_map(tA);
    gh_tma_prefetch_map(tB);
    if (tma_c) gh_tma_prefetch_map(tC);
    for (int s = 0; s < S; ++s) { gh_bar_init(&full[s], 1); gh_bar_init(&empty[s], pair ? 16 : 8); }
    gh_fence_bar_init();
  }
  uint32_t rank = pair ? gh_cluster_rank() : 0;         // the place in the pair
  if (pair) gh_cluster_sync();                           // the peer's barriers are initialised
  else __syncthreads();
  gh_grid_wait();                                        // PDL: the launch ahead has ended
  gh_grid_release();
  if (wg == 0) {                                         // the producer
    GH_SETMAXNREG_DEC(40);
    if (tid == 0)
      for (int kt = 0; kt < ktiles; ++kt) {
        int s = kt % S;
        if (kt >= S) gh_bar_wait(&empty[s], (kt / S - 1) & 1);
        uint8_t *a = sa + s * SA, *b = sb + s * SB;
        gh_bar_expect(&full[s], SA + SB);
        if (pair)                                        // my box of A, for both CTAs of the pair
          gh_tma_load_multicast(a + rank * GH_BOX_A, tA, &full[s], tm * bm + 64 * (int)rank, kt * GH_BK, 0x3);
        else
#pragma unroll
          for (int q = 0; q < bm / 64; ++q) gh_tma_load(a + q * GH_BOX_A, tA, &full[s], tm * bm + 64 * q, kt * GH_BK);
        gh_tma_load(b, tB, &full[s], kt * GH_BK, tn * bn);
      }
  } else {                                               // consumer c: rows bm/2 c .. of the tile
    GH_SETMAXNREG_INC(232);
    int c = wg - 1;
    float acc[128];                                      // chain h: acc[64 h ..], bn / 2 accumulators a thread
#pragma unroll
    for (int j = 0; j < 128; ++j) acc[j] = 0.0f;
#pragma unroll
    for (int h = 0; h < chains; ++h) s29_fence_acc(acc + 64 * h, bn / 2);
    uint64_t da = gh_desc(sa + c * chains * GH_BOX_A, GH_BOX_A, 1024), db = gh_desc(sb, 16, 1024);   // stage 0's
    for (int kt = 0; kt < ktiles; ++kt) {
      int s = kt % S;
      gh_bar_wait(&full[s], (kt / S) & 1);
      gh_wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < GH_BK / 16; ++kk)
#pragma unroll
        for (int h = 0; h < chains; ++h) {
          uint64_t a = gh_desc_add(da, s * SA + h * GH_BOX_A + kk * 2048);
          uint64_t b = gh_desc_add(db, s * SB + kk * 32);
          if (bn == 96) gh_wgmma_96(acc + 64 * h, a, b);
          else gh_wgmma_128(acc + 64 * h, a, b);
        }
      gh_wgmma_commit();
      GH_WGMMA_WAIT(1);
      if (kt > 0) {
        if (pair) gh_release_pair(&empty[(kt - 1) % S], rank);   // in both CTAs (hopper.h)
        else if (tid % 32 == 0) gh_bar_arrive(&empty[(kt - 1) % S]);
      }
    }
    GH_WGMMA_WAIT(0);
#pragma unroll
    for (int h = 0; h < chains; ++h) s29_fence_acc(acc + 64 * h, bn / 2);
    if (tma_c) s29_consumers_sync();                     // the stages are free once both consumers are done
#pragma unroll
    for (int h = 0; h < chains; ++h) {
      int row0 = tm * bm + bm / 2 * c + 64 * h, col0 = tn * bn;
      if (row0 >= M) break;
      if (tma_c)
        gh_epilogue_tma_whole(acc + 64 * h, bn / 32, sa + (c * chains + h) * (bn / 32) * 8192, tC, c, row0, col0,
                              alpha);
      else
        gh_epilogue_cols(acc + 64 * h, bn / 8, row0, col0, M, N, alpha, beta, C, ldc);
    }
  }
  if (pair) gh_cluster_sync();                           // no arrival may reach a CTA that has left
#endif
}
#define ONE_WAVE_KERNEL(name, bm, bn, pair) \
  __global__ void __launch_bounds__(384, 1) \
  name(const __grid_constant__ CUtensorMap tA, const __grid_constant__ CUtensorMap tB, \
       const __grid_constant__ CUtensorMap tC, int tma_c, int M, int N, int K, float alpha, \
       float beta, float *C, int ldc) \
  { \
    one_wave_body(&tA, &tB, &tC, tma_c, M, N, K, alpha, beta, C, ldc, bm, bn, pair); \
  }
ONE_WAVE_KERNEL(k29_one_wave, 128, 96, 0)
ONE_WAVE_KERNEL(k29_one_wave_128, 128, 128, 0)
ONE_WAVE_KERNEL(k29_pairs, 128, 96, 1)
ONE_WAVE_KERNEL(k29_pairs_128, 128, 128, 1)
ONE_WAVE_KERNEL(k30_tall, 256, 128, 0)
ONE_WAVE_KERNEL(k30_tall_96, 256, 96, 0)
// ANCHOR_END: kernel

/* The launch of a grid of (bm,bn) tiles, in pairs along the grid's y where `pair` */
static void one_wave_config(cudaLaunchConfig_t *cfg, cudaLaunchAttribute attr[2], dim3 grid, int bm, int bn, int pair)
{
  gh_launch_config(cfg, attr, grid, 384, S29_SMEM(bm, bn), pair ? 2 : 1);
  for (unsigned i = 0; i < cfg->numAttrs; ++i)
    if (attr[i].id == cudaLaunchAttributeClusterDimension)
      attr[i].val.clusterDim.x = 1, attr[i].val.clusterDim.y = 2;
}
/* Pairs that fit on the GPU at once, for (128,bn) tiles: cudaOccupancyMaxActiveClusters */
static int pairs_resident(int bn)
{
  static int count[2] = { -1, -1 };
  int w = bn == 128;
  if (count[w] < 0) {
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute attr[2];
    one_wave_config(&cfg, attr, dim3(1, 2), 128, bn, 1);
    LK_CHECK(cudaOccupancyMaxActiveClusters(&count[w], w ? k29_pairs_128 : k29_pairs, &cfg));
  }
  return count[w];
}
static void set_smem(void)
{
  static int ready;
  if (ready) return;
  LK_CHECK(cudaFuncSetAttribute(k29_one_wave, cudaFuncAttributeMaxDynamicSharedMemorySize, S29_SMEM(128, 96)));
  LK_CHECK(cudaFuncSetAttribute(k29_one_wave_128, cudaFuncAttributeMaxDynamicSharedMemorySize, S29_SMEM(128, 128)));
  LK_CHECK(cudaFuncSetAttribute(k29_pairs, cudaFuncAttributeMaxDynamicSharedMemorySize, S29_SMEM(128, 96)));
  LK_CHECK(cudaFuncSetAttribute(k29_pairs_128, cudaFuncAttributeMaxDynamicSharedMemorySize, S29_SMEM(128, 128)));
  LK_CHECK(cudaFuncSetAttribute(k30_tall, cudaFuncAttributeMaxDynamicSharedMemorySize, S29_SMEM(256, 128)));
  LK_CHECK(cudaFuncSetAttribute(k30_tall_96, cudaFuncAttributeMaxDynamicSharedMemorySize, S29_SMEM(256, 96)));
  ready = 1;
}

// ANCHOR: tall_launch
/* One CTA a (bm,bn) tile, the whole k loop in each: step 29 (bm = 128, in pairs that share A where
 * `pairs` and they fit on the GPU at once) and step 30 (bm = 256, 30_tall.cu describes the step) */
static void tiles_a_cta(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                        float *C, int ldc, int bm, int bn, int pairs)
{
  int tiles_m = (M + bm - 1) / bm, tiles_n = (N + bn - 1) / bn;
  if (tiles_n > 65535) {                                 // more than a grid's y holds: the best path
    gemm_17_tma_store(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  gh_operands op;
  if (!gh_prepare_box(M, N, K, A, lda, B, ldb, &op, bn)) {   // B in (64 k, bn) boxes
    gh_fallback(&op, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  set_smem();
  // ANCHOR: pairs_launch
  int pair = pairs &&                                    // long k loops, tiles along n even: pairs that
             (long long)tiles_m * tiles_n / 2 <= pairs_resident(bn);   // share A (hopper.cu), if they fit
  // ANCHOR_END: pairs_launch
  CUtensorMap tC = { { 0 } };
  int tma_c = gh_tma_c_may(&tC, M, N, beta, C, ldc);    // TMA stores wherever C allows them, at any K:
                                                         // the stages are free by then (as in step 20)
  cudaLaunchConfig_t cfg;
  cudaLaunchAttribute attr[2];
  one_wave_config(&cfg, attr, dim3((unsigned)tiles_m, (unsigned)tiles_n), bm, bn, pair);
  void (*kernel)(const CUtensorMap, const CUtensorMap, const CUtensorMap, int, int, int, int, float, float, float *,
                 int) = bm == 256 ? (bn == 96 ? k30_tall_96 : k30_tall)
                        : pair    ? (bn == 96 ? k29_pairs : k29_pairs_128)
                                  : (bn == 96 ? k29_one_wave : k29_one_wave_128);
  LK_CHECK(cudaLaunchKernelEx(&cfg, kernel, op.a, op.b, tC, tma_c, M, N, K, alpha, beta, C, ldc));
  LK_CHECK(cudaGetLastError());
}
void gh_tall_tiles(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                   float *C, int ldc, int bn)
{
  tiles_a_cta(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, 256, bn, 0);
}
// ANCHOR_END: tall_launch
void gemm_29_one_wave(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                      float *C, int ldc)
{
  int sms = gh_sm_count();                               // (128,96) tiles where they fit at once, else (128,128)
  tiles_a_cta(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, S29_BM, gh_one_wave_bn(M, N, sms),
              gh_one_wave_pairs(M, N, K, sms));
}
