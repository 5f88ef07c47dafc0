/* Step 25 -- skinny problems: the narrow side of C as the MMA's n.
 *
 * What changes from steps 19 and 20: wgmma's m is always 64, its n anything from 8 to 256 in steps
 * of 8.  Steps 12 to 24 put C's rows on m and its columns on n, so a problem with 16 rows
 * (M = 16, a few tokens through a wide layer) fills a quarter of each m64 MMA -- and of each
 * (64,64) box of A -- with zeros, and cuts N into tiles of 128 or 256 columns: 32 tiles for
 * N = 4096, a quarter of the SMs, so step 19 splits each k loop in 4 and adds the parts up.  Here
 * a tile is (64 wide, 64 narrow): the wide side of C (the longer of M and N) on the MMA's m, the
 * narrow side on its n, one m64n64k16 chain of 32 accumulators for the one consumer warpgroup.
 *   N narrow (N <= M): A's (64 m, 64 k) boxes feed the MMA as A, m-major, as in every step before;
 *     B's (64 k, 64 n) boxes feed it as B, k-major.  C's rows on m, columns on n.
 *   M narrow (M < N): the operands swap places, C^T = B^T A^T: B's (64 k, 64 n) boxes feed the MMA
 *     as A, k-major (imm-trans-a = 0), A's (64 m, 64 k) boxes as B, m-major (imm-trans-b = 1).  The
 *     same boxes, the same descriptors, the same shared memory; accumulator (i, j) is C(j, i).
 * So a (16, 4096) C has 64 tiles, each reading a 64-column slice of B once, and B is read once in
 * all: the whole problem is reading B.
 * The k loop of each tile is cut into `parts` (as many as fill the SMs, two CTAs an SM, each part 8
 * k tiles or more, up to S25_MAX_PARTS); a part writes its partial sums to a workspace slot and
 * counts itself in on the tile's counter, and the part that comes last adds the slots in
 * ascending order -- its own from registers, in its place in the order -- and writes C: the same
 * sums whichever part comes last, so the result does not depend on timing.  No part waits for
 * another, so the CTAs need not all be resident; the last resets the counter for the next launch.
 * A CTA is a producer warp (of a warpgroup) and a consumer warpgroup, with stages of 16 KiB: 6 where
 * two CTAs share an SM, 14 where a CTA has an SM to itself -- where the tiles fit on the SMs and the
 * wide operand fits in the L2 (s25_stages).  Where the wide operand does not fit in the L2, its
 * boxes are loaded evict-first.  Where M is narrow, the CTAs come in clusters along the wide side
 * that share A's box (s25_cluster below says why and when).
 *
 * Measured (H100 80GB HBM3, ratios to cuBLAS in the same run, output-narrow; in brackets the route
 *   before step 25, step 19's split-K or step 16 at 8 x 14336 x 4096): 16 x 4096 x 4096 0.73 (0.58),
 *   64 x 4096 x 4096 0.92 (0.61), 8 x 14336 x 4096 0.99 (0.61), 16 x 14336 x 4096 1.05 (0.84),
 *   32 x 28672 x 4096 1.05 (0.90), 16 x 4096 x 16384 1.00 (0.92), 4096 x 16 x 4096 1.18 (1.00),
 *   4096 x 64 x 4096 0.82 (0.59), 8192 x 64 x 8192 0.98 (0.90), 14336 x 16 x 4096 1.02 (0.95).
 *   cuBLAS's own time varies from run to run at the 4096 x 4096 operands (10-18 us at 4096 x 16 x 4096).
 * The stages and the evict-first loads, old build against new on one H100, the same hour (each in its own
 *   process with cuBLAS): 16 x 4096 x 4096 18 -> 15 us, 64 x 4096 x 4096 17 -> 13, 4096 x 16 x 4096
 *   17 -> 15, 4096 x 64 x 4096 16 -> 14 (the deep stages); 8192 x 64 x 8192 0.93 -> 0.98 of cuBLAS,
 *   16 x 8192 x 8192 0.92 -> 0.97, 16 x 4096 x 16384 0.95 -> 1.00, 32 x 4096 x 11008 0.94 -> 1.02,
 *   8 x 14336 x 4096 0.97 -> 0.99 (evict-first).
 * Where the time goes at 4096 x 4096 operands (one call, the L2 as the calls before left it, each
 *   CTA's steps stamped with %globaltimer; 4096 x 64 x 4096, 2 parts of 32 k tiles, 14 stages): the
 *   set-up 0.5 us, the first box 1.1 us later, the other 31 k tiles 7.8 us (250 ns each), the slot
 *   and the count 1.3 us, the last part's sum and C 1.9 us: 12.7 us, where cuBLAS takes 10-12 in
 *   the timed windows.  The L2 serves both: under ncu with the caches as the calls before left them
 *   (application replay), at 16 x 4096 x 4096 cuBLAS's kernel read 3-7 MB of the 32 MB from memory
 *   in 10.6-11.6 us, this step's (without PDL) 6-8 MB in 17-18 us.  So the gap is in the kernel:
 *   the parts' fix-up, and a k tile every 250 ns a CTA.
 * Tried and changed: no clusters at all, where M is narrow -- 8 x 14336 x 4096 0.41, 8 x 8192 x 8192
 *   0.45 of cuBLAS: A's box, with rows of 2 M bytes, costs the L2 as many requests as B's for a
 *   fraction of the bytes; clusters of 4 with the parts counted against two CTAs an SM rather than
 *   the clusters that fit at once (cudaOccupancyMaxActiveClusters): a second wave of clusters, 0.46-0.69
 *   at 16 x 4096 x 4096 and 8 x 8192 x 8192; clusters of 4 where clusters of 2 keep twice the CTAs
 *   at work (16 x 8192 x 8192: 0.84 against 0.92); 6 stages everywhere (see above); the deep stages
 *   everywhere: 16 x 8192 x 8192 0.60 against 0.92 and 8 x 8192 x 8192 0.61 against 0.78 (B of
 *   128 MiB from memory, the parts halved), 8 x 14336 x 4096 0.87 against 0.97 (224 tiles: two
 *   waves of one CTA an SM).
 * Tried and dropped: no split, as cuBLAS (64 CTAs at 16 x 4096 x 4096): 25 us; the wide boxes
 *   prefetched into the L2 8 to 32 k tiles ahead (cp.async.bulk.prefetch.tensor): slower everywhere,
 *   16 x 4096 x 4096 0.49-0.56 against 0.59-0.78, 8 x 14336 x 4096 0.58-0.81 against 0.89-0.97;
 *   evict-last on the wide boxes: no gain at 4096 x 4096 operands, 0.88-0.94 against 0.92-0.97 where
 *   they stream; the parts of a tile as one cluster (cs x parts CTAs) adding up through distributed
 *   shared memory, no workspace and no counter: slower at 10 of 12 shapes (16 x 4096 x 4096 20 us
 *   against 16, 64 x 2048 x 2048 11 against 8), faster at 16 x 8192 x 8192 (0.96 against 0.91) --
 *   as step 19 found.
 */
#include "hopper.h"
#include "labkit.h"

#define S25_SHALLOW 6                           /* stages where two CTAs share an SM */
#define S25_DEEP 14                             /* stages where a CTA has an SM to itself */
#define S25_STAGE (2 * GH_BOX_A)                /* 16 KiB: a (64,64) box of each operand */
#define S25_SMEM(stages) ((stages) * S25_STAGE + 2 * (stages) * 8 + 1024)
#define S25_SLOT (64 * 64)                      /* floats of a part's partial sums: 16 KiB */
#define S25_MAX_PARTS 16
#define S25_MIN_KTILES 8                        /* the fewest k tiles a part takes */

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
/* D(64,64) += A(64,16) * B(16,64); `tr` gives imm-trans-a and imm-trans-b: "1, 0" A m-major and
 * B k-major (N narrow), "0, 1" A k-major and B m-major (M narrow, the operands swapped) */
#define S25_WGMMA(name, tr)                                                                                         \
  __device__ static inline void name(float *d, uint64_t da, uint64_t db)                                           \
  {                                                                                                                \
    asm volatile("{\n .reg .pred p;\n setp.eq.u32 p, 1, 1;\n"                                                      \
                 " wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {"                                         \
                 "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"                                          \
                 "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31"                                 \
                 "}, %32, %33, p, 1, 1, " tr ";\n}\n"                                                              \
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),        \
                   "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),      \
                   "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),      \
                   "+f"(d[29]), "+f"(d[30]), "+f"(d[31])                                                           \
                 : "l"(da), "l"(db));                                                                              \
  }
S25_WGMMA(s25_wgmma_rows, "1, 0")
S25_WGMMA(s25_wgmma_swapped, "0, 1")
__device__ static inline void s25_fence_acc(float d[32])
{
#pragma unroll
  for (int i = 0; i < 32; ++i) asm volatile("" : "+f"(d[i]) :: "memory");
}
// ANCHOR: once
/* TMA as gh_tma_load, with an L2 eviction priority: evict-first for a box read once that the L2
 * cannot keep until the next call anyway, so that it does not push out what the L2 can keep */
__device__ static inline void s25_tma_load_once(void *dst, const CUtensorMap *map, uint64_t *bar, int c0, int c1)
{
  uint64_t pol;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;\n" : "=l"(pol));
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
               " [%0], [%1, {%3, %4}], [%2], %5;\n"
               :: "r"(gh_smem(dst)), "l"((uint64_t)map), "r"(gh_smem(bar)), "r"(c0), "r"(c1), "l"(pol) : "memory");
}
// ANCHOR_END: once
__device__ static inline void s25_consumers_sync(void) { asm volatile("bar.sync 1, 128;\n" ::: "memory"); }
#endif

// ANCHOR: kernel
/* The kernel's body, for `swapped` a constant: k25_rows (N narrow) and k25_swapped (M narrow).  The
 * CTAs come in clusters of `cs` (1, 2 or 4) along the wide side: tiles (cs g + r, tn) for ranks r,
 * the same part of the k loop, the same narrow box; CTA r loads rows r slice.. of it (tS: boxes of
 * `slice` = 64 / cs rows) and multicasts them to the whole cluster.  `stages` stages of 16 KiB
 * (S25_SHALLOW or S25_DEEP); where `once`, the wide boxes are loaded evict-first. */
__device__ static __forceinline__ void s25_narrow(const CUtensorMap *tA, const CUtensorMap *tB, const CUtensorMap *tS,
                                                  const int swapped, int stages, int once, int cs, int groups_w,
                                                  int parts, int ktiles, int M, int N, float alpha, float beta,
                                                  float *C, int ldc, float *work, int *count)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ uint8_t raw[];
  __shared__ int last;
  uint8_t *sw = (uint8_t *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023), *sn = sw + stages * GH_BOX_A;
  uint64_t *full = (uint64_t *)(sn + stages * GH_BOX_A), *empty = full + stages;
  int tid = threadIdx.x, wg = tid / 128, slice = 64 / cs;
  int r = (int)(blockIdx.x % cs), cl = (int)(blockIdx.x / cs);   // rank in the cluster, the cluster
  int part = cl % parts, gt = cl / parts;
  int tw = (gt % groups_w) * cs + r, tn = gt / groups_w;  // (64 wide, 64 narrow) tile (tw, tn)
  int id = gt * cs + r;                                  // the tile's counter; its parts' slots id parts..
  int kb = (int)((long long)part * ktiles / parts), ke = (int)((long long)(part + 1) * ktiles / parts);
  if (tid == 0) {
    gh_tma_prefetch_map(tA);
    gh_tma_prefetch_map(tB);
    if (cs > 1) gh_tma_prefetch_map(tS);
    for (int s = 0; s < stages; ++s) { gh_bar_init(&full[s], 1); gh_bar_init(&empty[s], 4 * cs); }
    gh_fence_bar_init();
  }
  if (cs > 1) gh_cluster_sync();                         // the peers' barriers are ready
  else __syncthreads();
  gh_grid_wait();                                        // PDL: the launch ahead has ended
  gh_grid_release();
  float acc[32];
  int t = tid - 128;
  if (wg == 0) {                                         // the producer: the wide box, then the narrow one
    // stage s and its parity ph step along with kt: with `stages` a launch argument, it % stages and
    // it / stages each k tile took 16 x 4096 x 4096 from 15 to 19 us, 4096 x 64 x 4096 from 13 to 17
    // (H100, one run)
    if (tid == 0)
      for (int kt = kb, s = 0, ph = 0; kt < ke; ++kt, s = s + 1 < stages ? s + 1 : 0, ph ^= s == 0) {
        if (kt - kb >= stages) gh_bar_wait(&empty[s], ph ^ 1);   // the stage's last use is over
        uint8_t *w = sw + s * GH_BOX_A, *n = sn + s * GH_BOX_A;
        gh_bar_expect(&full[s], S25_STAGE);              // the wide box, and every slice of the narrow one
        const CUtensorMap *tw_map = swapped ? tB : tA;  // wide: B's (64 k, 64 n) or A's (64 m, 64 k)
        int w0 = swapped ? kt * GH_BK : tw * 64, w1 = swapped ? tw * 64 : kt * GH_BK;
        if (once) s25_tma_load_once(w, tw_map, &full[s], w0, w1);
        else gh_tma_load(w, tw_map, &full[s], w0, w1);
        if (cs == 1) {                                   // narrow: A's (64 m, 64 k) or B's (64 k, 64 n)
          if (swapped) gh_tma_load(n, tA, &full[s], tn * 64, kt * GH_BK);
          else gh_tma_load(n, tB, &full[s], kt * GH_BK, tn * 64);
        } else if (swapped)                              // my slice of it, to every CTA of the cluster
          gh_tma_load_multicast(n + r * slice * 128, tS, &full[s], tn * 64, kt * GH_BK + r * slice,
                                (uint16_t)((1 << cs) - 1));
        else
          gh_tma_load_multicast(n + r * slice * 128, tS, &full[s], kt * GH_BK, tn * 64 + r * slice,
                                (uint16_t)((1 << cs) - 1));
      }
  } else {                                               // the consumer warpgroup
#pragma unroll
    for (int j = 0; j < 32; ++j) acc[j] = 0.0f;
    s25_fence_acc(acc);
    // stage 0's descriptors: the wide and narrow boxes as k-major (32 bytes a k16) or m-major (2048)
    uint64_t dw_k = gh_desc(sw, 16, 1024), dw_m = gh_desc(sw, GH_BOX_A, 1024);
    uint64_t dn_k = gh_desc(sn, 16, 1024), dn_m = gh_desc(sn, GH_BOX_A, 1024);
    for (int kt = kb, s = 0, ph = 0, prev = 0; kt < ke; prev = s, ++kt, s = s + 1 < stages ? s + 1 : 0, ph ^= s == 0) {
      gh_bar_wait(&full[s], ph);
      uint32_t off = s * GH_BOX_A;
      gh_wgmma_fence();
      if (swapped) {
#pragma unroll
        for (int kk = 0; kk < GH_BK / 16; ++kk)         // k-major A: 32 bytes a k16; m-major B: 2048
          s25_wgmma_swapped(acc, gh_desc_add(dw_k, off + kk * 32), gh_desc_add(dn_m, off + kk * 2048));
      } else {
#pragma unroll
        for (int kk = 0; kk < GH_BK / 16; ++kk)
          s25_wgmma_rows(acc, gh_desc_add(dw_m, off + kk * 2048), gh_desc_add(dn_k, off + kk * 32));
      }
      gh_wgmma_commit();
      GH_WGMMA_WAIT(1);
      if (kt > kb && t % 32 == 0) {                      // the stage before is free, in every CTA
        uint64_t *e = &empty[prev];
        if (cs == 1) gh_bar_arrive(e);
        else
          for (int q = 0; q < cs; ++q) gh_bar_arrive_remote(e, (uint32_t)q);
      }
    }
    GH_WGMMA_WAIT(0);
    s25_fence_acc(acc);
  }
  if (cs > 1) gh_cluster_sync();                         // no arrive or multicast reaches a CTA that has left
  if (wg == 0) return;
  // ANCHOR: fixup
  if (parts > 1) {                                       // my slot, then count me in; the last adds up
    float *slot = work + ((size_t)id * parts + part) * S25_SLOT + t;
#pragma unroll
    for (int j = 0; j < 32; ++j) __stcg(slot + j * 128, acc[j]);
    __threadfence();                                     // the slot before the count
    s25_consumers_sync();
    if (t == 0) last = atomicAdd(&count[id], 1) == parts - 1;
    s25_consumers_sync();
    if (!last) return;
    __threadfence();                                     // the others' slots after their counts
    const float *slots = work + (size_t)id * parts * S25_SLOT + t;
    float sum[32];
#pragma unroll
    for (int j = 0; j < 32; ++j) sum[j] = 0.0f;
    for (int p = 0; p < parts; ++p) {                    // ascending parts, mine in its place
      if (p == part) {
#pragma unroll
        for (int j = 0; j < 32; ++j) sum[j] += acc[j];
      } else {
#pragma unroll
        for (int j = 0; j < 32; ++j) sum[j] += __ldcg(slots + (size_t)p * S25_SLOT + j * 128);
      }
    }
#pragma unroll
    for (int j = 0; j < 32; ++j) acc[j] = sum[j];
    if (t == 0) count[id] = 0;                           // every part has counted: ready for the next launch
  }
  // ANCHOR_END: fixup
  // accumulator 4j + 2h + e: row i = 16 (t/32) + (t%32)/4 + 8h, column q = 8j + 2 (t%4) + e of the
  // (64,64) tile; C(i, q) where N is narrow, C(q, i) where M is (a tile past the wide side: nothing)
  int i0 = 16 * (t / 32) + (t % 32) / 4, q0 = 2 * (t % 4);
#pragma unroll
  for (int j = 0; j < 8; ++j)
#pragma unroll
    for (int h = 0; h < 2; ++h)
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        int i = tw * 64 + i0 + 8 * h, q = tn * 64 + q0 + 8 * j + e;
        int m = swapped ? q : i, n = swapped ? i : q;
        if (m < M && n < N) {
          float *c = C + m + (size_t)n * ldc;
          *c = gemm_epilogue(acc[4 * j + 2 * h + e], alpha, beta, c);
        }
      }
#endif
}
__global__ void __launch_bounds__(256, 2)
k25_rows(const __grid_constant__ CUtensorMap tA, const __grid_constant__ CUtensorMap tB,
         const __grid_constant__ CUtensorMap tS, int stages, int once, int cs, int groups_w, int parts, int ktiles,
         int M, int N, float alpha, float beta, float *C, int ldc, float *work, int *count)
{
  s25_narrow(&tA, &tB, &tS, 0, stages, once, cs, groups_w, parts, ktiles, M, N, alpha, beta, C, ldc, work, count);
}
__global__ void __launch_bounds__(256, 2)
k25_swapped(const __grid_constant__ CUtensorMap tA, const __grid_constant__ CUtensorMap tB,
            const __grid_constant__ CUtensorMap tS, int stages, int once, int cs, int groups_w, int parts,
            int ktiles, int M, int N, float alpha, float beta, float *C, int ldc, float *work, int *count)
{
  s25_narrow(&tA, &tB, &tS, 1, stages, once, cs, groups_w, parts, ktiles, M, N, alpha, beta, C, ldc, work, count);
}
// ANCHOR_END: kernel

/* CTAs of step 25 resident at once, in clusters of cs (1, 2 or 4), with `stages` stages: two an SM
 * with S25_SHALLOW, one with S25_DEEP, where the clusters fit */
static int s25_resident(int cs, int stages)
{
  static int resident[2][5];
  int *r = &resident[stages == S25_DEEP][cs];
  if (!*r) {
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute attr[2];
    int n = 0;
    gh_launch_config(&cfg, attr, dim3((unsigned)cs), 256, S25_SMEM(stages), cs);
    if (cs > 1) LK_CHECK(cudaOccupancyMaxActiveClusters(&n, k25_swapped, &cfg));
    else {
      LK_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k25_swapped, 256, S25_SMEM(stages)));
      n *= gh_sm_count();
    }
    if (n < 1) {
      fprintf(stderr, "gemm_25_narrow: no cluster of %d with %d stages fits on this GPU\n", cs, stages);
      exit(1);
    }
    *r = n * cs;
  }
  return *r;
}
// ANCHOR: parts
/* The CTAs for the tiles: the tiles along the wide side rounded up to whole clusters of cs */
static long long s25_ctas(int M, int N, int cs)
{
  long long wide = M > N ? M : N, narrow = M > N ? N : M;
  return (wide + 64 * cs - 1) / (64 * cs) * cs * ((narrow + 63) / 64);
}
// ANCHOR: stages
/* The L2's bytes, and those of the wide operand: A (M x K) where N is narrow, B (K x N) where M is */
static long long s25_l2(void)
{
  static long long l2;
  if (!l2) {
    int dev, v;
    LK_CHECK(cudaGetDevice(&dev));
    LK_CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrL2CacheSize, dev));
    l2 = v;
  }
  return l2;
}
static long long s25_wide_bytes(int M, int N, int K) { return (long long)(M > N ? M : N) * K * 2; }
/* The stages.  Where the tiles fit on the SMs one CTA each and the wide operand fits in the L2, a
 * CTA has an SM to itself and S25_DEEP stages of loads in flight; elsewhere two CTAs share an SM,
 * S25_SHALLOW stages each, so that twice as many tiles (or parts) are at work at once. */
static int s25_stages(int M, int N, int K)
{
  return s25_ctas(M, N, 1) <= gh_sm_count() && s25_wide_bytes(M, N, K) <= s25_l2() ? S25_DEEP : S25_SHALLOW;
}
// ANCHOR_END: stages
/* The parts of each tile's k loop: as many as the GPU holds CTAs at once, each with S25_MIN_KTILES
 * k tiles or more, up to S25_MAX_PARTS (1: no split) */
static int s25_parts(int M, int N, int K, int cs, int stages)
{
  long long p = s25_resident(cs, stages) / s25_ctas(M, N, cs), k = (K + GH_BK - 1) / GH_BK;
  if (p > k / S25_MIN_KTILES) p = k / S25_MIN_KTILES;
  if (p > S25_MAX_PARTS) p = S25_MAX_PARTS;
  return p < 1 ? 1 : (int)p;
}
/* The clusters along the wide side.  Where M is the narrow side, A's (64 m, 64 k) box has rows of
 * 2 M bytes, shorter than a 128-byte line for M < 64, and costs the L2 as many requests as the wide
 * box for a fraction of its bytes: clusters of 4 or 2 load it once for all their tiles -- of the
 * two, the one that keeps more CTAs at work (4 on a tie; 2 where the wide side has 2 or 3 tiles).
 * Where N is narrow, B's box has whole 128-byte rows: no clusters. */
static int s25_cluster(int M, int N, int K, int stages)
{
  long long tiles_w = ((long long)N + 63) / 64;
  if (M >= N || M >= 64 || tiles_w < 2) return 1;
  if (tiles_w < 4) return 2;
  long long four = s25_ctas(M, N, 4) * s25_parts(M, N, K, 4, stages),
            two = s25_ctas(M, N, 2) * s25_parts(M, N, K, 2, stages);
  return four >= two ? 4 : 2;
}
// ANCHOR_END: parts

void gemm_25_narrow(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                    float *C, int ldc)
{
  static int ready, slots;
  static float *work;
  static int *count;
  int cs = 1, stages = S25_SHALLOW;
  if (gh_route(M, N, K, A, lda, B, ldb) == 1) {          // a Hopper GPU, and the operands fit TMA
    if (!ready) {
      LK_CHECK(cudaFuncSetAttribute(k25_rows, cudaFuncAttributeMaxDynamicSharedMemorySize, S25_SMEM(S25_DEEP)));
      LK_CHECK(cudaFuncSetAttribute(k25_swapped, cudaFuncAttributeMaxDynamicSharedMemorySize, S25_SMEM(S25_DEEP)));
      for (int c = 1; c <= 4; c *= 2)
        for (int st = S25_SHALLOW; st <= S25_DEEP; st += S25_DEEP - S25_SHALLOW)
          if (s25_resident(c, st) > slots) slots = s25_resident(c, st);
      LK_CHECK(cudaMalloc(&work, (size_t)slots * S25_SLOT * sizeof(float)));   // a slot a resident CTA
      LK_CHECK(cudaMalloc(&count, (size_t)slots * sizeof(int)));               // a counter a split tile
      LK_CHECK(cudaMemset(count, 0, (size_t)slots * sizeof(int)));
      ready = 1;
    }
    stages = s25_stages(M, N, K);
    cs = s25_cluster(M, N, K, stages);
  }
  gh_operands op, sl;
  if (!gh_prepare_slices(M, N, K, A, lda, B, ldb, &op, &sl, 64 / cs)) {   // (64,64) boxes, and their slices
    gh_fallback(&op, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  int swapped = M < N;                                   // the narrow side on the MMA's n
  long long groups_w = ((swapped ? N : M) + 64 * cs - 1) / (64 * cs), ctas = s25_ctas(M, N, cs);
  int once = s25_wide_bytes(M, N, K) > s25_l2();        // the wide boxes evict-first: the L2 cannot keep them
  int parts = s25_parts(M, N, K, cs, stages), ktiles = (K + GH_BK - 1) / GH_BK;
  if (ctas * parts > 0x7fffffffLL) {                     // more than a grid holds: the best path
    gemm_17_tma_store(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  cudaLaunchConfig_t cfg;
  cudaLaunchAttribute attr[2];
  gh_launch_config(&cfg, attr, dim3((unsigned)(ctas * parts)), 256, S25_SMEM(stages), cs);
  if (swapped)
    LK_CHECK(cudaLaunchKernelEx(&cfg, k25_swapped, op.a, op.b, sl.a, stages, once, cs, (int)groups_w, parts, ktiles, M,
                                N, alpha, beta, C, ldc, work, count));
  else
    LK_CHECK(cudaLaunchKernelEx(&cfg, k25_rows, op.a, op.b, sl.b, stages, once, cs, (int)groups_w, parts, ktiles, M,
                                N, alpha, beta, C, ldc, work, count));
  LK_CHECK(cudaGetLastError());
}
