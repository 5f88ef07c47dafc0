/* Step 19 -- split-K for small problems: each (128,128) tile's k loop cut between 2 to 64 CTAs.
 *
 * What changes from step 16: a problem whose (128,128) tiles fit on the SMs at once -- 1000^3 is 64
 * tiles for 132 SMs -- runs one tile per CTA there, and half the SMs or more do nothing.  Here the k
 * loop of every tile is cut into `splits` parts, one CTA each (equal but for one k tile under the
 * shared fix-up; under the owner's, the owner takes S19_OWNER_EXTRA k tiles more than the others),
 * so T x splits CTAs run at once (never more than the SMs).  Each CTA is one producer
 * warpgroup and two consumers, which share the tile as in step 13: consumer c computes rows
 * 64c..64c+63, one m64n128k16 chain of 64 accumulators (so both warpgroups' epilogues and fix-ups
 * run side by side).  A part leaves its partial sums in workspace slot `cta` (64 KiB,
 * thread-fastest) and raises its flag with the launch's epoch -- every part but the owner under the
 * owner's fix-up, every part under the shared one.  The parts are added in one of two ways:
 *   the owner's fix-up (2 or 3 parts), as in step 15: the last part, which holds the tile's last k
 *     tile, waits for the others, adds their slots in descending k, and writes C -- through shared
 *     memory and TMA stores where C allows them (the stages are free by then; gh_epilogue_tma_whole,
 *     hopper.h).  It starts its k loop with the others and has 6 or 7 k tiles more, so their slots
 *     are written while it computes;
 *   the shared fix-up (4 parts or more): every part writes its slot and waits for all the others;
 *     part p then adds up rows 64p/s .. 64(p+1)/s - 1 of the slots (each thread its own column of
 *     them, 64 values where s divides 64, as the owner adds one slot, at most 75 where not) and
 *     writes those elements of C.  Each part reads about 64 KiB whatever s is, where an owner
 *     would add s - 1 slots in turn.
 * The order of the sums is fixed, so the result does not depend on timing.  All CTAs are resident
 * (one per SM, at most as many as SMs), so the waits end.
 * Pairs that share an operand (gh_split_pairs, hopper.cu): the same part of two tiles side by side
 * along n reads the same rows of A, and of two along m the same columns of B.  Where the tile
 * columns are even in number, the CTAs come in clusters of 2 along n, and CTA r of a pair loads A's
 * box r and multicasts it to both (as step 29's pairs do); else, where the tile rows are even and B
 * lies off 128-byte lines, in clusters of 2 along m, CTA r loading B's 64 columns r (a (64 k, 64 n)
 * box) for both.  Either way a CTA asks L2 for 24 KiB a k tile in place of 32.  A stage is released
 * by the 16 consumer warps of both CTAs, and both meet at the end, so that no arrival reaches a CTA
 * that has left.  The pairs must fit on the GPU at once (cudaOccupancyMaxActiveClusters: 66 on an
 * H200), or the parts run alone.  The slots and flags keep a tile's parts side by side whichever way.
 *
 * The number of parts, and whether to split at all, is the launcher's rule (gh_split_parts in
 * hopper.cu: as many as the SMs hold, with at least 4 k tiles a part, up to 3; from 4 on, all of
 * them up to 16 where each part keeps 24 k tiles, or the largest power of two up to 64 if more);
 * step 17's launcher sends a problem here where (128,128) tiles fit on the SMs at once and there
 * are two parts or more, and where the estimates of gh_estimates do not prefer Stream-K.
 *
 * Measured (H100 80GB HBM3, best path against cuBLAS in one run; step 16 in brackets), with the
 *   first rule (at most 4 parts, the owner's fix-up): 1024x1024x4096 0.85 (0.55), 1024x1024x8192
 *   0.80 (0.49), 384x384x8192 0.87 (0.33), 896^3 1.11 (0.94), 768^3 1.11 (0.99), 512^3 1.38 (1.22),
 *   700x900x3000 1.30 (1.13), 2000x500x1000 0.97 (0.94), 1000^3 0.88 (0.87).  Forcing 1 to 4 parts
 *   at 9 small shapes (three runs), the split was never slower than step 16 where each part had 4
 *   k tiles or more, and more parts paid most where K is long.
 * The fix-ups, forced (H100, us): the owner's with 2, 4, 8, 16 parts at 896^3, 640x640x8192,
 *   384x384x8192, 256x256x16384: 10, 23, 19, 25; the shared one: 11, 20, 12-13, 12; with no fix-up
 *   at all (wrong results, for the timing): 8, 19, 11, 11.  The shared fix-up with 2 parts runs
 *   1 us behind the owner's, with 4 or more ahead of it.  Where the SMs allow 3 parts but not 4,
 *   3 with an owner beat 2 (768x768x4096: 16 against 19 us), as the estimate says.  A first version of the
 *   shared fix-up cost 10-16 us: it looped over its share element by element at run time, with
 *   the slots' values loaded a few at a time (ncu: four times the instructions, stalled on
 *   fixed-latency dependencies); this one is unrolled like the owner's, all loads in flight.
 * The best path before and after the shared fix-up and the power-of-two rule (the earlier rule
 *   took the estimate's best count up to 16, all with the owner's fix-up), medians of three runs
 *   of each, alternated, H100 (H200): 128x128x65536 0.30 -> 0.92 (0.31 -> 1.31), 128x128x8192
 *   0.72 -> 1.54 (0.71 -> 1.62), 256x256x16384 0.55 -> 0.95 (0.62 -> 1.47), 384x384x8192
 *   0.74 -> 1.14 (0.85 -> 1.40), 512x512x8192 0.67 -> 0.84 (0.69 -> 0.92), 256x1024x16384
 *   0.74 -> 0.88 (0.67 -> 0.83), 384x768x12000 0.76 -> 0.80 (0.71 -> 0.69), 640x640x8192
 *   1.01 -> 1.04 (0.99 -> 1.05); unchanged where the parts stay 2 or 3 (1000^3, 896^3, 768^3,
 *   1024x1024x4096).
 *   At 512x512x8192 and 384x768x12000 the tiles read A once per tile column and B once per tile
 *   row, 67 and 110 MB from L2 in all, which may bound them more than the parts do (not measured).
 * 1000^3 gains little (1-5 %; H200: 0.77 against 0.73): its time is not the MMAs'.  1024^3, the same 64 tiles and 16 k
 *   tiles, runs in 11 us, 1000^3 in 14 us; 1024x1000x1024 takes 11 us too, but 1000x1024x1024 and
 *   1024x1024x1000 take 12: a leading dimension of A or B of 1000 bf16 (2000 bytes, 16-byte but
 *   not 128-byte aligned) costs about 1.5 us each, every 128-byte row of a TMA box lying across two
 *   lines.  Padded copies with 128-byte rows cost more than that (1000^3 at 0.47 of cuBLAS, 2000^3
 *   0.52 against 0.99), so the lab takes the operands as they come.
 * Where 1000^3's time goes (H100, us, the best path with parts of the work left out, which gives
 *   wrong results): all of it 14.1; without the fix-up 11.8; without the fix-up and the epilogue
 *   9.7; without the MMAs as well 9.2; without the loads as well (launch and set-up) 3.2-4.6.
 *   1024^3: 10.8, 8.3, 6.1, 5.9, 3.2-4.6; 768^3 (3 parts): 10.5, 6.8, 5.1, 4.4, 3.2.  So the owner's
 *   fix-up costs 2.3-2.5 us with 2 parts and 3.7 with 3, the epilogue 1.7-2.2.  Two changes took
 *   0.6-1.5 us of that:
 *   the owner's C by TMA stores, staged all at once in the free stages (no wait between slices):
 *     1000^3 14.3 -> 13.7 us, 768^3 10.7 -> 10.1, 896^3 10.5 -> 9.8 (two runs each);
 *   the owner's longer share.  The others write their slots (64 KiB, about 2 us) while it still
 *     computes, so it waits less.  With 2 to 8 extra k tiles, two runs each, the time fell up to 5
 *     or 6 and rose again at 8: 1000^3 13.4 (2) -> 12.6 (6) -> 13.0 (8).
 *   Old build against new, medians of three alternated runs, H100, us: 1000^3 14.1 -> 12.7,
 *   1024^3 10.9 -> 9.7, 896^3 10.2 -> 9.1, 768^3 10.4 -> 9.6, 2000x500x1000 12.9 -> 11.9,
 *   1000x1000x2000 18.4 -> 16.9, 700x800x1000 (3 parts) 16.5 -> 15.5, 768x768x4096 (3) 16.4 -> 15.7,
 *   1024x1024x4096 20.1 -> 19.2, 700x900x3000 28.1 -> 27.3; shared fix-ups unchanged.
 * The pairs, measured on an H200, in one process of each build in turn, twice (the best path,
 *   07_gemm --versions 0,17, on random shapes whose route is this step, sides 200-1700, K 2048-32768):
 *   sharing A, at 32 shapes with even tile columns: faster at 25, by -5.5 to +33.9%, +9.2% on average
 *   (median ratio to cuBLAS 0.817 -> 0.864; 936 x 971 x 11856 0.85 -> 1.11, 808 x 387 x 28272
 *   0.60 -> 0.75); slower at 752 x 997 x 2720, 304 x 1680 x 11144, 272 x 1680 x 14448 and 464 x 1425
 *   x 4320 (3.0-5.5%).  Sharing B, at 28 with odd tile columns and even rows: faster at 25, by -8.8
 *   to +42.5%, +12.8% on average (0.771 -> 0.874; 688 x 1351 x 18968 0.95 -> 1.35); but at 16 more
 *   with B on lines (K a multiple of 64) and A off them, -18.8 to +11.9%, +1.6% on average (1512 x
 *   288 x 31616 0.67 -> 0.54): so B is shared only where it lies off lines.  Where both lie on lines
 *   (sharing A: 1024 x 1024 x 4096, x 8192, x 16384, 768 x 768 x 8192, 384 x 1536 x 8192), -0.4 to
 *   +3.0%.  Held out, the rule against the build before: at 24 random shapes where it takes pairs
 *   (14 sharing A, 10 B), faster at 20, by -5.0 to +32.0%, +10.2% on average (median ratio 0.796 ->
 *   0.855); at 4 where it does not, the two builds differed by -6.3 to +8.3%, with the same route
 *   and order of calls and the kernel differing only by the `pair` branches these shapes do not
 *   take (not explained; both runs of each build agreed within 2%).
 *   Earlier, on an H100 and before the stepped descriptors and the waits' time hint, pairs sharing
 *   A had been slower, or no faster, at 6 of 7 shapes (1024x1024x4096 397 against 428 TFLOP/s, 768^3
 *   76 against 85), faster at 512x512x8192 (283 against 263), and were dropped.  The H100 has not
 *   been timed with them since.
 * Tried and dropped (H100, the best path):
 *   slots written and read with 16-byte accesses (steps 15 and 19): no change beyond the noise at
 *     2 or 3 parts nor in Stream-K, and 10 % slower at 64 parts, where the shared fix-up's rows then
 *     lie 16 bytes apart;
 *   the parts of a tile as one cluster (2 to 8 CTAs), adding up through distributed shared memory
 *     (each part's sums in its own shared memory, each part adding its rows of all of them): no
 *     workspace and no flags, but slower everywhere: 1000^3 15.3 against 14.2 us, 1024x1024x4096
 *     23.3 against 20.8, 640x640x8192 (4 parts) 27.5 against 20.4, 384x384x8192 (8) 27.4 against
 *     12.3.
 *   Stream-K over (128,128) tiles on every SM in place of the split (chapter 6's schedule, as step
 *     15 runs it over (128,256) tiles, with this step's CTA and the owner's fix-up; H200, one
 *     process, ratios to cuBLAS, the split in brackets): slower at 8 of 9 shapes with K from 12288
 *     to 32768, 768x768x32768 0.797 (0.830), 640x640x16384 0.665 (0.824), 1024x1024x16384 0.751
 *     (0.926), 512x512x32768 0.610 (0.855); ahead only at 640x1152x12288, 0.827 (0.810), where the
 *     split leaves 42 SMs idle.  Not looked into further; two likely costs: the ranges start at
 *     different k in different tiles, so the tiles that share a panel of A or B no longer read it
 *     at the same time (the split's parts do), and an owner adds up to five slots in turn.
 * PDL: the consumers release the next launch when they are done, not at the start, as step 15's
 *   kernel does (15_stream_k.cu says why).  H200, queued (07_gemm --launch-cost), us a call, two
 *   runs, plain / released at the start / at the end: 1800x369x9472 37.2 / 40.7-41.7 / 34.9-35.0,
 *   960x960x8192 39.1-42.5 / 39.6-40.0 / 36.3-36.6, 1024x1024x4096 18.9 / 17.6-17.7 / 17.4-17.5;
 *   within 0.5 us at five more shapes, and 8.5 against 8.3 at 512x512x2048.
 */
#include "hopper.h"
#include "labkit.h"

#define S19_BM 128
#define S19_BN 128
#define S19_STAGES 6
#define S19_STAGE_A (S19_BM * GH_BK * 2)        /* 16 KiB: A's two (64,64) boxes */
#define S19_STAGE_B (S19_BN * GH_BK * 2)        /* 16 KiB: one (64,128) box of B */
#define S19_SMEM (S19_STAGES * (S19_STAGE_A + S19_STAGE_B) + 2 * S19_STAGES * 8 + 1024)
#define S19_SLOT (S19_BM * S19_BN)              /* floats of one CTA's partial sums: 64 KiB */
/* Under the owner's fix-up, the owner's k tiles beyond an even share: the other parts finish that
 * much earlier and their slots are written while it still computes (timed 2 to 8, best at 5-6). */
#define S19_OWNER_EXTRA 6

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
__device__ static inline void s19_consumers_sync(void) { asm volatile("bar.sync 1, 256;\n" ::: "memory"); }
/* one k tile for consumer c: its (64,64) box of A times the stage's (64,128) box of B */
__device__ static inline void s19_mma_ktile(float acc[64], const uint8_t *sA, const uint8_t *sB, int c)
{
  uint64_t da = gh_desc(sA + c * GH_BOX_A, GH_BOX_A, 1024), db = gh_desc(sB, 16, 1024);
  gh_wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < GH_BK / 16; ++kk)
    gh_wgmma_128(acc, gh_desc_add(da, kk * 2048), gh_desc_add(db, kk * 32));
  gh_wgmma_commit();
}
// ANCHOR: fixup_shared
/* The shared fix-up, for 4 to 16 parts, or 32 or 64.  The tile's S slots lie side by side from
 * `slots`; row j of a slot is accumulator j of the 256 consumer threads (element j * 256 + t).
 * Part p takes rows 64 p / S up to 64 (p + 1) / S (RC of them at most: RC = 64 / S rounded up):
 * each thread loads its own column of those rows from every slot, all in flight at once, adds
 * each row's S values in ascending order, and writes C where the epilogue would have: the same
 * sums in every run.  S and RC are constants where it is called, so the loads are unrolled. */
__device__ static __forceinline__ void s19_fixup_rows(const float *slots, const int S, const int RC, int part, int row0,
                                                      int col0, int M, int N, float alpha, float beta, float *C,
                                                      int ldc)
{
  int t = (int)threadIdx.x - 128, tt = t % 128, j0 = 64 * part / S, R = 64 * (part + 1) / S - j0;
  const float *col = slots + (size_t)j0 * 256 + t;
  float x[80];                                           // S * RC <= 75 for every S called with
#pragma unroll
  for (int i = 0; i < S * RC; ++i) {                     // a part of RC - 1 rows loads its last row twice
    int r = 64 % S == 0 || i % RC < R ? i % RC : R - 1;
    x[i] = __ldcg(col + (size_t)(i / RC) * S19_SLOT + r * 256);
  }
  int rowt = row0 + 64 * (t / 128) + 16 * (tt / 32) + (tt % 32) / 4, colt = col0 + 2 * (tt % 4);
#pragma unroll
  for (int r = 0; r < RC; ++r) {
    if (64 % S && r >= R) break;                        // RC - 1 rows: the last is not written twice
    float v = x[r];
#pragma unroll
    for (int q = 1; q < S; ++q) v += x[q * RC + r];
    int j = j0 + r, row = rowt + 8 * ((j / 2) % 2), cl = colt + 8 * (j / 4) + j % 2;
    if (row < M && cl < N) {
      float *c = C + row + (size_t)cl * ldc;
      *c = gemm_epilogue(v, alpha, beta, c);
    }
  }
}
#define S19_FIXUP(S) s19_fixup_rows(slots, S, (64 + S - 1) / S, part, row0, col0, M, N, alpha, beta, C, ldc)
__device__ static inline void s19_fixup_shared(const float *slots, int splits, int part, int row0, int col0, int M,
                                               int N, float alpha, float beta, float *C, int ldc)
{
  switch (splits) {
  case 4: S19_FIXUP(4); break;
  case 5: S19_FIXUP(5); break;
  case 6: S19_FIXUP(6); break;
  case 7: S19_FIXUP(7); break;
  case 8: S19_FIXUP(8); break;
  case 9: S19_FIXUP(9); break;
  case 10: S19_FIXUP(10); break;
  case 11: S19_FIXUP(11); break;
  case 12: S19_FIXUP(12); break;
  case 13: S19_FIXUP(13); break;
  case 14: S19_FIXUP(14); break;
  case 15: S19_FIXUP(15); break;
  case 16: S19_FIXUP(16); break;
  case 32: S19_FIXUP(32); break;
  default: S19_FIXUP(64); break;
  }
}
// ANCHOR_END: fixup_shared
#endif

// ANCHOR: kernel
/* `pair`: 0 alone, 1 in pairs along n that share A, 2 in pairs along m that share B (gh_split_pairs) */
__global__ void __launch_bounds__(384, 1)
k19_split_k(const __grid_constant__ CUtensorMap tA, const __grid_constant__ CUtensorMap tB,
            const __grid_constant__ CUtensorMap tC, int tma_c, int tiles_m, int splits, int ktiles, int extra, int M,
            int N, float alpha, float beta, float *C, int ldc, float *work, int *flags, int epoch, int shared, int pair)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ uint8_t raw[];
  uint8_t *sa = (uint8_t *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023), *sb = sa + S19_STAGES * S19_STAGE_A;
  uint64_t *full = (uint64_t *)(sb + S19_STAGES * S19_STAGE_B), *empty = full + S19_STAGES;
  int tid = threadIdx.x, wg = tid / 128;
  int tile, part, tm, tn;
  uint32_t rank = pair ? gh_cluster_rank() : 0;
  if (pair == 1) {                                       // clusters of 2: tiles (tm, 2j) and (tm, 2j + 1), one part
    int p = blockIdx.x / 2, tp = p / splits;
    part = p % splits, tm = tp % tiles_m, tn = 2 * (tp / tiles_m) + (int)rank;
    tile = tn * tiles_m + tm;
  } else if (pair == 2) {                                // clusters of 2: tiles (2i, tn) and (2i + 1, tn), one part
    int p = blockIdx.x / 2, tp = p / splits, tiles_n = (N + S19_BN - 1) / S19_BN;
    part = p % splits, tn = tp % tiles_n, tm = 2 * (tp / tiles_n) + (int)rank;
    tile = tn * tiles_m + tm;
  } else {
    tile = blockIdx.x / splits, part = blockIdx.x % splits, tm = tile % tiles_m, tn = tile / tiles_m;
  }
  int cta = tile * splits + part;                        // this part's slot and flag: a tile's parts side by side
  // ANCHOR: parts
  // the parts' k tiles: ktiles - extra shared out evenly, and the last part (the owner) takes `extra` more
  int kb = (int)((long long)part * (ktiles - extra) / splits);
  int ke = part == splits - 1 ? ktiles : (int)((long long)(part + 1) * (ktiles - extra) / splits);
  // ANCHOR_END: parts
  if (tid == 0) {
    gh_tma_prefetch_map(&tA);
    gh_tma_prefetch_map(&tB);
    for (int s = 0; s < S19_STAGES; ++s) { gh_bar_init(&full[s], 1); gh_bar_init(&empty[s], pair ? 16 : 8); }
    gh_fence_bar_init();
  }
  if (pair) gh_cluster_sync();                           // the peer's barriers are initialised
  else __syncthreads();
  gh_grid_wait();                                        // PDL: the launch ahead has ended, its writes visible
  if (wg == 0) {                                         // the producer: this part's k tiles
    GH_SETMAXNREG_DEC(40);
    if (tid == 0)
      for (int kt = kb; kt < ke; ++kt) {
        int it = kt - kb, s = it % S19_STAGES;
        if (it >= S19_STAGES) gh_bar_wait(&empty[s], (it / S19_STAGES - 1) & 1);
        uint8_t *a = sa + s * S19_STAGE_A, *b = sb + s * S19_STAGE_B;
        gh_bar_expect(&full[s], S19_STAGE_A + S19_STAGE_B);
        if (pair == 1)                                   // my box of A, for both CTAs of the pair
          gh_tma_load_multicast(a + rank * GH_BOX_A, &tA, &full[s], tm * S19_BM + 64 * (int)rank, kt * GH_BK, 0x3);
        else {
          gh_tma_load(a, &tA, &full[s], tm * S19_BM, kt * GH_BK);
          gh_tma_load(a + GH_BOX_A, &tA, &full[s], tm * S19_BM + 64, kt * GH_BK);
        }
        if (pair == 2)                                   // my half of B's box (64 columns), for both
          gh_tma_load_multicast(b + rank * (S19_STAGE_B / 2), &tB, &full[s], kt * GH_BK, tn * S19_BN + 64 * (int)rank,
                                0x3);
        else
          gh_tma_load(b, &tB, &full[s], kt * GH_BK, tn * S19_BN);
      }
  } else do {                                            // the consumers: a block that `break` leaves,
    GH_SETMAXNREG_INC(232);                              // rows 64c.. of the tile
    int c = wg - 1, t = tid - 128;
    float acc[64];
#pragma unroll
    for (int j = 0; j < 64; ++j) acc[j] = 0.0f;
    gh_fence_acc64(acc);
    for (int kt = kb; kt < ke; ++kt) {
      int it = kt - kb, s = it % S19_STAGES;
      gh_bar_wait(&full[s], (it / S19_STAGES) & 1);
      s19_mma_ktile(acc, sa + s * S19_STAGE_A, sb + s * S19_STAGE_B, c);
      GH_WGMMA_WAIT(1);
      if (it > 0) {
        if (pair) gh_release_pair(&empty[(it - 1) % S19_STAGES], rank); // in both CTAs (hopper.h)
        else if (tid % 32 == 0) gh_bar_arrive(&empty[(it - 1) % S19_STAGES]);
      }
    }
    GH_WGMMA_WAIT(0);
    gh_fence_acc64(acc);
    if (shared || part < splits - 1) {                   // a part: to slot `cta`, then the flag
      float *slot = work + (size_t)cta * S19_SLOT + t;
#pragma unroll
      for (int j = 0; j < 64; ++j) slot[j * 256] = acc[j];
      s19_consumers_sync();                              // all 256 threads' sums are written ...
      if (t == 0) gemm_flag_store(&flags[cta], epoch);    // ... then published (a release at GPU scope)
      if (!shared) {
        gh_grid_release();                               // PDL: the consumers release the next launch at
        break;                                           // their end, as in step 15
      }
      if (t < splits) gemm_flag_wait(&flags[cta - part + t], epoch); // shared: thread t waits for part t
      s19_consumers_sync();                              // every part of the tile is in
      s19_fixup_shared(work + (size_t)(cta - part) * S19_SLOT, splits, part, tm * S19_BM, tn * S19_BN, M, N, alpha,
                       beta, C, ldc);
      gh_grid_release();
      break;
    }
    for (int q = 1; q <= part; ++q) {                    // the owner: the parts before it, k descending
      if (t == 0) gemm_flag_wait(&flags[cta - q], epoch); // traps after ~10 s: a lost partial sum
      s19_consumers_sync();
      const float *slot = work + (size_t)(cta - q) * S19_SLOT + t;
#pragma unroll
      for (int j = 0; j < 64; ++j) acc[j] += __ldcg(slot + j * 256);
    }
    if (tma_c) gh_epilogue_tma_whole(acc, 4, sa + c * 32768, &tC, c, tm * S19_BM + 64 * c, tn * S19_BN, alpha);
    else gh_epilogue_cols(acc, 16, tm * S19_BM + 64 * c, tn * S19_BN, M, N, alpha, beta, C, ldc);
    gh_grid_release();
  } while (0);                                           // so that in pairs both CTAs meet below
  if (pair) gh_cluster_sync();                           // no arrival may reach a CTA that has left
#endif
}
// ANCHOR_END: kernel

void gemm_19_split_k(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                     float *C, int ldc)
{
  int sms = gh_sm_count(), splits = gh_split_parts(M, N, K, sms), shared = gh_split_shared(splits);
  if (splits < 2) {                                      // nothing to share out: step 16, one tile a CTA
    gemm_16_pingpong(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  static int epoch, pairs_fit;
  static float *work;
  static int *flags;
  cudaLaunchConfig_t cfg;
  cudaLaunchAttribute attr[2];
  if (!work) {                                           // one slot and one flag per SM
    LK_CHECK(cudaFuncSetAttribute(k19_split_k, cudaFuncAttributeMaxDynamicSharedMemorySize, S19_SMEM));
    LK_CHECK(cudaMalloc(&work, (size_t)sms * S19_SLOT * sizeof(float)));
    LK_CHECK(cudaMalloc(&flags, (size_t)sms * sizeof(int)));
    LK_CHECK(cudaMemset(flags, 0, (size_t)sms * sizeof(int)));
    gh_launch_config(&cfg, attr, dim3(2), 384, S19_SMEM, 2);   // pairs of CTAs that fit on the GPU at once
    LK_CHECK(cudaOccupancyMaxActiveClusters(&pairs_fit, k19_split_k, &cfg));
  }
  int tiles_m = (M + S19_BM - 1) / S19_BM, tiles_n = (N + S19_BN - 1) / S19_BN, ktiles = (K + GH_BK - 1) / GH_BK;
  long long ctas = (long long)tiles_m * tiles_n * splits;
  // ANCHOR: pairs
  int pair = ctas / 2 <= pairs_fit ? gh_split_pairs(M, N, ldb) : 0;   // pairs that share A or B, if they fit
  // ANCHOR_END: pairs
  gh_operands op;
  if (!gh_prepare_box(M, N, K, A, lda, B, ldb, &op, pair == 2 ? 64 : 128)) {
    gh_fallback(&op, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  int uneven = shared && splits > GH_SPLIT_ALL && (splits & (splits - 1));   // gh_split_parts never asks for these:
  if (ctas > sms || splits > ktiles || splits > GH_SPLIT_MAX || uneven) {
    fprintf(stderr, "gemm_19_split_k: %lld CTAs for %d slots, %d parts of %d k tiles\n", ctas, sms, splits, ktiles);
    exit(1);
  }
  epoch = epoch == 0x7fffffff ? 1 : epoch + 1;           // flags of earlier launches never match
  if (epoch == 1) LK_CHECK(cudaMemset(flags, 0, (size_t)sms * sizeof(int)));
  // the owner's C by TMA stores where C allows them (K = 0: step 17's limit on K comes from the
  // L1 its staging buffers take, and this kernel stages C in its free stages); and its longer share
  CUtensorMap tC = { { 0 } };
  int tma_c = !shared && gh_tma_c(&tC, M, N, 0, beta, C, ldc);
  int extra = shared ? 0 : S19_OWNER_EXTRA;              // gh_split_parts leaves 4 k tiles a part or more,
  if (ktiles - extra < splits) extra = 0;                // so every part keeps one k tile at least
  gh_launch_config(&cfg, attr, dim3((unsigned)ctas), 384, S19_SMEM, pair ? 2 : 1);
  LK_CHECK(cudaLaunchKernelEx(&cfg, k19_split_k, op.a, op.b, tC, tma_c, tiles_m, splits, ktiles, extra, M, N, alpha, beta,
                              C, ldc, work, flags, epoch, shared, pair));
  LK_CHECK(cudaGetLastError());
}
