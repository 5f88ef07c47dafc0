/* hopper.h -- what the Hopper steps (11 to 17, 19 to 26) share: the sm_90a instructions, each wrapped once in
 * inline PTX, the shared-memory plan of a (128,256,64) CTA tile, the consumer's k-tile of wgmma and the
 * epilogue; the host side (tensor maps, padding, the fallback) is in hopper.cu.
 *
 *   the tile      a CTA computes the (BM,BN) = (128,256) tile of C at tile coordinate (tm, tn):
 *                 local_tile(mC, (_128,_256), (tm,tn)); it reads local_tile(mA, (_128,_64), (tm,_))
 *                 and local_tile(mB, (_64,_256), (_,tn)), one (_,_,k) slice per k tile.
 *   the copies    the tensor memory accelerator (TMA) copies boxes of a matrix that a tensor map
 *                 describes into shared memory, swizzled, and counts the bytes on an mbarrier;
 *                 elements outside the matrix arrive as zeros, so ragged M, N and K need no test.
 *   the MMAs      wgmma: the 4 warps of a warpgroup multiply a (64,16) slice of A by a (16,256)
 *                 slice of B, both read from shared memory through 64-bit matrix descriptors,
 *                 into 128 fp32 accumulators per thread.
 *
 * Shared memory of one stage (1024-byte aligned, the 128-byte swizzle's period):
 *   A: two boxes of (64 m, 64 k) bf16, m contiguous: 128-byte rows, one per k   (2 x 8 KiB)
 *   B: two boxes of (64 k, 128 n) bf16, k contiguous: 128-byte rows, one per n  (2 x 16 KiB)
 * TMA's 128-byte swizzle stores the 16-byte chunk c of row r at chunk c ^ (r % 8): in the book's
 * algebra, Swizzle<3,4,3> applied to the box's byte offsets, for A (64,64):(2,128) (chapter 7).
 */
#ifndef GEMM_HOPPER_H
#define GEMM_HOPPER_H
#include "gemm.h"
#include "tile_scheduler.h"
#include <cuda.h>

#define GH_BM 128
#define GH_BN 256
#define GH_BK 64
#define GH_STAGE_A (GH_BM * GH_BK * 2)          /* bytes of A in one stage: 16 KiB */
#define GH_STAGE_B (GH_BN * GH_BK * 2)          /* bytes of B in one stage: 32 KiB */
#define GH_BOX_A (64 * GH_BK * 2)               /* one TMA box of A: (64 m, 64 k) = 8 KiB */
#define GH_BOX_B (GH_BK * 128 * 2)              /* one TMA box of B: (64 k, 128 n) = 16 KiB */
/* dynamic shared memory for S stages: the stages, 2 S mbarriers, and slack to align to 1024 */
#define GH_SMEM(S) ((S) * (GH_STAGE_A + GH_STAGE_B) + 2 * (S) * 8 + 1024)

/* host side (hopper.cu) ------------------------------------------------------------------------ */

/* The operands as the kernels read them: two tensor maps, over the caller's matrices or over
 * padded copies of them (pad.cu).  gh_route says which kernel a problem goes to -- 1: the Hopper
 * kernel, 8: the predicated step 8, 9: step 9 (hopper.cu says when); gh_prepare makes the tensor
 * maps and returns 1, or returns 0 with op->fallback set for gh_fallback. */
typedef struct gh_operands {
  CUtensorMap a, b;                    /* A: (M,K) in boxes (64,64); B: (K,N) in boxes (64,128) (or as asked) */
  int fallback;                        /* gh_route's answer */
  int rows128;                         /* every column of A and B starts on a 128-byte line (step 20) */
} gh_operands;
int gh_route(int M, int N, int K, const bf16 *A, int lda, const bf16 *B, int ldb);
int gh_prepare(int M, int N, int K, const bf16 *A, int lda, const bf16 *B, int ldb, gh_operands *op);
/* the same with B's boxes (64 k, b_cols n) (step 20 multicasts halves of its (64,128) B tile: 64) */
int gh_prepare_box(int M, int N, int K, const bf16 *A, int lda, const bf16 *B, int ldb, gh_operands *op, int b_cols);
/* step 25: both in (64,64) boxes (op), and each also in slices of its box, `slice` rows of it:
 * A in (64 m, slice k), B in (64 k, slice n) (what one CTA of a cluster loads of the box they share) */
int gh_prepare_slices(int M, int N, int K, const bf16 *A, int lda, const bf16 *B, int ldb, gh_operands *op,
                      gh_operands *slices, int slice);
/* 1 when a persistent launch pays: at least 3 tiles per SM (steps 13 and 14; below, step 12) */
int gh_persistent_pays(int M, int N);
/* The lab's best path (step 17's launcher) on a GPU of `sms` SMs, by rules on the shape and the
 * operands' leading dimensions (hopper.cu): 30 (256,bn) tiles for C of 65 to 128 columns and many
 * rows, 14 clusters of 2 sharing B or 23 clusters of 2 sharing
 * A, both with step 17's epilogue, 24 (192,192) tiles in clusters of 2 sharing B, 21 (192,192)
 * tiles, 22 Stream-K over them, 15 Stream-K, 20 small
 * tiles, 16 ping-pong, 19 split-K, 12 warp-specialized, or 17; the launcher it names still pads
 * the operands or falls back as gh_prepare decides */
int gh_best_path(int M, int N, int K, int lda, int ldb, int sms);
/* the same without the clusters, by the shape alone: what the launcher runs where it would take
 * them but TMA may not write C (beta != 0, C or ldc unaligned, M not a multiple of 4) */
int gh_best_path_unclustered(int M, int N, int K, int sms);
/* the width of step 29's (128,bn) tiles: 96 where they fit on `sms` SMs at once, else 128 */
int gh_one_wave_bn(int M, int N, int sms);
/* whether step 29 runs in pairs of CTAs that share A: k loops longer than 3072, tiles along n even */
int gh_one_wave_pairs(int M, int N, int K, int sms);
/* step 30's (256,bn) tiles, one a CTA (29_one_wave.cu compiles them): bn = gh_tall_bn(N), 96 where
 * N <= 96, else 128 */
int gh_tall_bn(int N);
void gh_tall_tiles(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                   float *C, int ldc, int bn);
/* what step 17's launcher runs with operands at aligned addresses, leading dimensions lda and ldb:
 * 9 or 8 where K < 128 and lda or ldb is not a multiple of 8 (the fallbacks of gh_route), else
 * gh_best_path */
int gh_launch_route(int M, int N, int K, int lda, int ldb, int sms);
/* 1 where the best path first copies A and B to leading dimensions of a multiple of 64 (pad.cu's
 * gemm_pad_pair_bf16) and routes the copies: the route is step 16, lda and ldb are both 8 more than
 * a multiple of 16, and M and K multiples of 8 */
int gh_pad_pays(int M, int N, int K, int lda, int ldb, int sms);
/* step 19's parts: how many CTAs share each (128,128) tile's k loop (1: no split): up to 3; from 4
 * on, any count up to GH_SPLIT_ALL where each part keeps GH_SPLIT_ALL_MIN_K k tiles or more, or a
 * power of two up to GH_SPLIT_MAX, whichever is more; with 4 or more, the fix-up is shared out
 * among the parts */
#define GH_SPLIT_ALL 16
#define GH_SPLIT_ALL_MIN_K 24
#define GH_SPLIT_MAX 64
int gh_split_parts(int M, int N, int K, int sms);
static inline int gh_split_shared(int parts) { return parts > 3; }
/* whether step 19's parts run in pairs that share A (1) or B (2), or alone (0): by the tile counts and B's lines */
int gh_split_pairs(int M, int N, int ldb);
/* the four estimates gh_best_path weighs, in the time of one (128,256,64) k tile on one SM:
 * Stream-K's, whole tiles' (step 16's or 19's kernel where (128,128) tiles fit, else waves of
 * (128,256); step 20's where its (64,128) tiles fit and it is the lower), step 21's waves of
 * (192,192) tiles, and step 22's Stream-K over them */
void gh_estimates(int M, int N, int K, int sms, double *stream_k, double *whole, double *tile_192,
                  double *stream_k_192);
/* a tensor map over C (fp32) for TMA stores of (32,32) boxes, 128-byte swizzled (step 17); 0 where
 * C's base or leading dimension breaks TMA's 16-byte rule */
int gh_encode_c(CUtensorMap *map, float *C, int M, int N, int ldc);
/* the TMA-store epilogue (step 17, and the best path's Stream-K) where it may and pays: 1 with *map
 * made, or 0 (the direct epilogue) -- see hopper.cu; above K = GH_TMA_C_MAX_K it measured slower */
#define GH_TMA_C_MAX_K 4096
int gh_tma_c(CUtensorMap *map, int M, int N, int K, float beta, float *C, int ldc);
/* where TMA may write C at all, whatever K (the best path's clusters): 1 with *map made, or 0 */
int gh_tma_c_may(CUtensorMap *map, int M, int N, float beta, float *C, int ldc);
/* step 14's clusters with the direct epilogue (tma_epilogue 0, step 14 itself) or with step 17's
 * TMA-store epilogue (the best path); clusters of (2,1) tiles sharing B (share_a 0) or of (1,2)
 * sharing A (share_a 1, step 23); 0, with nothing launched, where that epilogue is asked for and
 * gh_tma_c_may refuses it */
int gh_clusters(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta, float *C,
                int ldc, int tma_epilogue, int share_a);
/* (192,bn) tiles, persistent: (192,192) alone (cluster 0, step 21) or in clusters of 2 along m
 * sharing B (cluster 1, step 24); (192,128) or (192,96) alone (bn 128 or 96, step 26) */
void gh_tile_192(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                 float *C, int ldc, int cluster, int bn);
/* step 26's tile width for an (M,N,K) problem on `sms` SMs: 128 or 96, whichever's estimate is lower
 * (96 where they tie); gh_narrow_estimate: that estimate, in the units of gh_estimates, and the width */
int gh_narrow_bn(int M, int N, int K, int sms);
double gh_narrow_estimate(int M, int N, int K, int sms, int *bn);
/* step 27's estimate, Stream-K over pairs of (128,256) tiles on sms / 2 clusters, and step 14's,
 * whole pairs in the same clusters, in the units of gh_estimates */
void gh_cluster_estimates(int M, int N, int K, int sms, double *stream_k, double *whole);
/* step 15's Stream-K with the direct epilogue (tma_epilogue 0, step 15 itself) or, where gh_tma_c
 * allows, step 17's TMA-store epilogue (the best path); cluster 1: step 27, over pairs of tiles
 * along m, each pair in a cluster of 2 that shares B */
void gh_stream_k(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb, float beta,
                 float *C, int ldc, int tma_epilogue, int cluster);
void gh_fallback(const gh_operands *op, int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb,
                 float beta, float *C, int ldc);
/* The swizzle of the persistent steps' tile order for a count of tile clusters along the swizzled
 * direction: the largest power of two up to gh_swizzle that divides it, so that the scheduler's
 * rounding adds no empty work (which would leave SMs idle in a wave). */
int gh_schedule_swizzle(int count);
/* The static persistent schedule of the (bm,bn) tiles of an (M,N) C (steps 13, 16, 17, 21):
 * chapter 6's scheduler (lib/tile_scheduler.h) in the order gh_persistent_raster_m picks, with the
 * swizzle above, and its grid, one CTA per SM and never more than the tiles; a schedule the
 * scheduler refuses ends the program with its reason, prefixed by `who` */
lts_params gh_persistent_schedule(int M, int N, int bm, int bn, const char *who, dim3 *grid);
/* the same along m (raster_m 1) or along n (0) whatever the shape (step 26) */
lts_params gh_persistent_schedule_along(int M, int N, int bm, int bn, int raster_m, const char *who,
                                        dim3 *grid);
/* step 26's order: along n where C is taller than wide (M > N) and its tiles fill 3 waves of
 * (128,256) tiles or more, else gh_raster_m (hopper.cu says why) */
int gh_narrow_raster_m(int M, int N);
/* the order of the other persistent steps' whole tiles (the schedule above and step 14's clusters):
 * along n where M >= 1.5 N and they fill 3 waves of (128,256) tiles or more, else gh_raster_m;
 * Stream-K keeps gh_raster_m (hopper.cu says why) */
int gh_persistent_raster_m(int M, int N);
/* Stream-K over the (bm,bn) tiles (steps 15, 22 and 27): chapter 6's scheduler with the order above,
 * `workers` CTAs (one per SM; step 27: one per cluster), never more than the k iterations, or
 * fewer where every tile then splits into 2 to 4 equal parts and the estimates prefer it (the
 * exact split: gh_stream_k_ctas says how many), its default Stream-K tiles; a schedule it refuses
 * ends the program with its reason, prefixed by `who` */
lts_sk_params gh_stream_k_schedule(int M, int N, int K, int bm, int bn, int workers, const char *who);
int gh_stream_k_ctas(int M, int N, int K, int bm, int bn, int workers);
/* where the Stream-K kernel of `step` (15, 22 or 27, with its own tile and workers) splits every
 * tile (step 27: pair of tiles) into 2 to 4 equal parts on `sms` SMs: how many, with its CTAs
 * (step 27: clusters) in *ctas; else 0 (--route names the split) */
int gh_route_exact_parts(int step, int M, int N, int K, int sms, int *ctas);
/* a Stream-K kernel's workspace (static in its launcher, zero at first): a slot of partial sums and a
 * flag per SM, made on the first launch; gh_stream_k_epoch returns the launch's epoch (the value
 * its flags are raised to), clearing the flags when the counter starts again */
typedef struct gh_sk_workspace { float *work; int *flags; int slots, epoch; } gh_sk_workspace;
int gh_stream_k_epoch(gh_sk_workspace *ws, size_t slot_floats);
int gh_sm_count(void);
/* TMA's swizzle observed: where[m + 64 k] = the byte offset at which element (m,k) of a (64,64) box
 * of A lands in shared memory; -1 without an sm_90 GPU */
int gh_swizzle_probe(int where[64 * 64]);
/* the CTA order of the persistent steps (13, 14): raster along m (1) or n (0), swizzle 1, 2, 4, 8 */
extern int gh_raster_m, gh_swizzle;
/* the choice for unaligned operands: 0 by the rules of hopper.cu, 1 always pad, 2 always the
 * predicated step 8 (the runner's --choice measures both) */
extern int gh_force;
/* 1 while step 17's launcher (the best path) runs: below K = 128 gh_route then keeps the Hopper
 * kernels where A and B need no padded copy, where the other launchers call step 9 (hopper.cu) */
extern int gh_short_k;
/* clusters of 2 resident at once (step 14), as cudaOccupancyMaxActiveClusters reports: 0 before the first call */
extern int gh_clusters_resident;
/* Programmatic dependent launch (PDL) for the kernels of the best paths (steps 12, 15-30):
 * 1 (the default) launches them on an sm_90 GPU with
 * cudaLaunchAttributeProgrammaticStreamSerialization, so that a launch may start before the
 * kernel ahead of it in the stream has ended (07_gemm --pdl 0: plain launches).  gh_launch_config
 * fills *cfg and attr (grid, threads, dynamic shared memory, and clusters of `cluster` CTAs along
 * x where cluster > 1). */
extern int gh_pdl;
void gh_launch_config(cudaLaunchConfig_t *cfg, cudaLaunchAttribute attr[2], dim3 grid, int threads, size_t smem,
                      int cluster);

/* The timeline (07_gemm --timeline): steps 12, 13, 15 and 16 can record, for every unit of work of
 * a consumer warpgroup, its SM, CTA, tile, k range and kind, and %globaltimer when its MMAs began
 * and ended, when its fix-up (Stream-K) ended and when its tile was written.  Their launchers pass
 * gh_tl; its marks are NULL except in the runner's timeline runs, so timed runs record nothing. */
typedef struct gh_mark {
  int sm, cta, wg, m, n, k_begin, k_end, kind;         /* kind: 0 a whole tile, 1 an owner, 2 partial sums */
  unsigned long long start, mma_end, fix_end, end;     /* ns */
} gh_mark;
typedef struct gh_timeline {
  gh_mark *marks;                                      /* device memory, or NULL: record nothing */
  int *count;                                          /* marks written (atomic) */
  int capacity;
} gh_timeline;
extern gh_timeline gh_tl;

/* device side ---------------------------------------------------------------------------------- */
#if defined(__CUDACC__)

/* the timeline's clock (ns), read only where a timeline is recorded */
__device__ static inline unsigned long long gh_now(const gh_timeline *tl)
{
  unsigned long long t = 0;
  if (tl->marks) asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
/* one unit of consumer warpgroup `wg`, written by its thread 0 */
__device__ static inline void gh_mark_unit(const gh_timeline *tl, int wg, int m, int n, int k_begin, int k_end, int kind,
                                           unsigned long long start, unsigned long long mma_end,
                                           unsigned long long fix_end)
{
  if (!tl->marks || threadIdx.x % 128 != 0) return;
  unsigned long long end = gh_now(tl);
  int i = atomicAdd(tl->count, 1), sm;
  if (i >= tl->capacity) return;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  gh_mark r = { sm, (int)(blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)), wg, m, n, k_begin, k_end,
                kind, start, mma_end, fix_end, end };
  tl->marks[i] = r;
}

__device__ static inline uint32_t gh_smem(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

/* mbarriers: a 64-bit word in shared memory that completes a phase when `count` arrivals and the
 * expected transaction bytes have come; a waiter names the parity of the phase it waits for. */
__device__ static inline void gh_bar_init(uint64_t *bar, int count)
{
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" :: "r"(gh_smem(bar)), "r"(count) : "memory");
}
__device__ static inline void gh_fence_bar_init(void)
{
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
__device__ static inline void gh_bar_expect(uint64_t *bar, uint32_t bytes)
{
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" :: "r"(gh_smem(bar)), "r"(bytes) : "memory");
}
__device__ static inline void gh_bar_arrive(uint64_t *bar)
{
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" :: "r"(gh_smem(bar)) : "memory");
}
/* One try, with a time hint: the thread may be suspended until the phase completes or about a
 * millisecond has passed (without the hint, a try returns after a short time of the hardware's
 * choosing).  Why it helps is not known: under ncu at 1536 x 1024 x 4096, step 29 issued 7.5
 * million instructions with it and eight stages, 7.2 million without it and with six: it does not
 * cut the instructions issued.  H200, the best path with and without the hint in two pairs of
 * processes, at 14 shapes from 640 x 640 x 8192 to 8192^3: between 0.1% slower and 2.7% faster
 * (1000^3 +2.7%, 1024^3 +1.3%, 2048 x 1024 x 4096 +1.2%, 8192^3 +0.4%). */
__device__ static inline int gh_bar_try(uint64_t *bar, int parity)
{
  uint32_t done;
  asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2, %3;\n"
               " selp.u32 %0, 1, 0, p;\n}\n"
               : "=r"(done) : "r"(gh_smem(bar)), "r"(parity), "r"(1000000) : "memory");
  return (int)done;
}
/* Wait for the phase of the given parity.  A wait that lasts 10 s is a bug (a lost arrival): the
 * kernel traps, and the launch reports an error instead of hanging the GPU. */
__device__ static inline void gh_bar_wait(uint64_t *bar, int parity)
{
  if (gh_bar_try(bar, parity)) return;
  uint64_t t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  while (!gh_bar_try(bar, parity)) {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    if (t - t0 > 10000000000ull) __trap();
  }
}

/* TMA: the box at coordinates (c0, c1) of the map's matrix into shared memory at dst; the bytes
 * count on bar.  The multicast form writes the same box into every CTA of `mask` (same offsets,
 * same barrier offset). */
__device__ static inline void gh_tma_load(void *dst, const CUtensorMap *map, uint64_t *bar, int c0, int c1)
{
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];\n"
               :: "r"(gh_smem(dst)), "l"((uint64_t)map), "r"(gh_smem(bar)), "r"(c0), "r"(c1) : "memory");
}
__device__ static inline void gh_tma_load_multicast(void *dst, const CUtensorMap *map, uint64_t *bar, int c0, int c1,
                                                    uint16_t mask)
{
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
               " [%0], [%1, {%3, %4}], [%2], %5;\n"
               :: "r"(gh_smem(dst)), "l"((uint64_t)map), "r"(gh_smem(bar)), "r"(c0), "r"(c1), "h"(mask) : "memory");
}
__device__ static inline void gh_tma_prefetch_map(const CUtensorMap *map)
{
  asm volatile("prefetch.tensormap [%0];\n" :: "l"((uint64_t)map) : "memory");
}

// ANCHOR: pdl
/* PDL, the kernel's side.  gh_grid_wait: wait until the grids ahead of this one in the stream have
 * ended and their writes are visible -- every thread calls it before it touches global memory (a
 * no-op in a plain launch).  gh_grid_release: the next launch may start as soon as every CTA of
 * this grid has called it (or ended); it starts only its prologue, and waits in its own
 * gh_grid_wait for this grid to end. */
__device__ static inline void gh_grid_wait(void) { asm volatile("griddepcontrol.wait;\n" ::: "memory"); }
__device__ static inline void gh_grid_release(void) { asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory"); }
/* the same in kernels that also run on GPUs before sm_90 (steps 18 and 28), where the launches are
 * plain and there is nothing to wait for */
__device__ static inline void gh_grid_wait_any(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  gh_grid_wait();
#endif
}
__device__ static inline void gh_grid_release_any(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  gh_grid_release();
#endif
}
// ANCHOR_END: pdl

/* one lane of the warp, elected (elect.sync): the branch it guards stays warp-uniform to the compiler */
__device__ static inline int gh_elect_one(void)
{
  uint32_t pred;
  asm volatile("{\n .reg .pred p;\n elect.sync _|p, 0xffffffff;\n selp.u32 %0, 1, 0, p;\n}\n" : "=r"(pred));
  return (int)pred;
}

/* clusters */
__device__ static inline uint32_t gh_cluster_rank(void)
{
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
}
__device__ static inline void gh_cluster_sync(void)
{
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}
// ANCHOR: release_pair
/* Arrive on the barrier at the same place in the shared memory of CTA `cta` of the cluster, with
 * relaxed semantics: no fence (a release at cluster scope would be one: chapter 7, step 14). */
__device__ static inline void gh_bar_arrive_remote(uint64_t *bar, uint32_t cta)
{
  asm volatile("{\n .reg .b32 ra;\n mapa.shared::cluster.u32 ra, %0, %1;\n"
               " mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [ra];\n}\n"
               :: "r"(gh_smem(bar)), "r"(cta) : "memory");
}
/* A consumer warp of a pair of CTAs is done with a stage: lane 0 tells both CTAs' producers, on its
 * own `empty` barrier and on the peer's (steps 14 and 20). */
__device__ static inline void gh_release_pair(uint64_t *bar, uint32_t rank)
{
  if (threadIdx.x % 32 == 0) {
    gh_bar_arrive(bar);
    gh_bar_arrive_remote(bar, rank ^ 1);
  }
}
// ANCHOR_END: release_pair

/* setmaxnreg: a warpgroup gives registers back (the producer) or takes them (the consumers) */
#define GH_SETMAXNREG_DEC(n) asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" :: "n"(n))
#define GH_SETMAXNREG_INC(n) asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" :: "n"(n))

/* wgmma -------------------------------------------------------------------------------------- */

/* A matrix descriptor: start address, the leading- and stride-dimension byte offsets (LBO, SBO),
 * and the 128-byte swizzle (layout type 1 in bits 62-63).  For the canonical 128B-swizzled forms
 * (in 16-byte units, T = 8 bf16):
 *   K-major  (B here): ((8,n),(T,2)):((8T,SBO),(1,T))     SBO = 1024: the next 8 rows
 *   MN-major (A here): ((T,8,m),(8,k)):((1,T,LBO),(8T,SBO))  LBO: the next 64 m; SBO = 1024: the next 8 k */
__device__ static inline uint64_t gh_desc(const void *smem, uint32_t lbo, uint32_t sbo)
{
  return (uint64_t)((gh_smem(smem) & 0x3FFFF) >> 4) | (uint64_t)((lbo & 0x3FFFF) >> 4) << 16 |
         (uint64_t)((sbo & 0x3FFFF) >> 4) << 32 | 1ull << 62;
}
/* The descriptor of the address `bytes` further on: the start address is its low field, in 16-byte
 * units, and shared memory (at most 228 KiB) keeps it inside the field's 14 bits, so one 32-bit add
 * to the low word does what gh_desc does again from the address; the high word (SBO, the swizzle)
 * stays as it is (CuTe's GMMA::DescriptorIterator adds its offsets the same way).  The k loops build
 * their descriptors once a k tile (gh_mma_ktile, gh192_mma_ktile, steps 16 and 19) or once before
 * the loop (steps 20, 25, 29) and step them with this.  Rebuilt from the address at every k16 step, step
 * 29's loop issued 97 instructions a k tile and warp where the wait passes at once, 27 of them
 * between the wait and the first MMA and up to 20 between MMAs; stepped, 69, 17 and 13 (cuobjdump).
 * H200, the two builds in three pairs of processes, at 10 shapes from 768^3 to 4096^3: step 29
 * 0.6-9.1% faster at all 10, step 16 0.6-12.7% at all 10, step 19 -0.1-10.8% (faster at 9), step 20
 * -1.8-5.6% (faster at 8), step 25 -4.1-5.8% (faster at 9); the best path in two pairs at 15 shapes,
 * 1.9-10.1% faster at 9 (1024 x 1024 x 4096 +5.1%, 2048 x 1024 x 4096 +10.1%), within 1.1% at the
 * other 6 (4096^3, 8192^3: the large squares' k loops, with m64n256 MMAs, have time to spare); in
 * three pairs at 13 more (narrow, small, one and two waves), 2.0-6.1% faster at 6 (640^3 +6.1%),
 * within 1% at 6, 1.6% slower at 1600 x 1200 x 6000 (step 16).  A
 * 64-bit add (desc + (bytes >> 4)) made steps 19, 20 and 25 up to 6% slower: the compiler carried
 * the descriptors in pairs of registers and moved them about. */
__device__ static inline uint64_t gh_desc_add(uint64_t desc, uint32_t bytes)
{
  return (desc & 0xFFFFFFFF00000000ull) | (uint32_t)((uint32_t)desc + (bytes >> 4));
}

__device__ static inline void gh_wgmma_fence(void) { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ static inline void gh_wgmma_commit(void) { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
#define GH_WGMMA_WAIT(n) asm volatile("wgmma.wait_group.sync.aligned %0;\n" :: "n"(n) : "memory")

/* Keep the compiler from moving reads or writes of the accumulators across the asynchronous MMAs
 * (128 of them; gh_fence_acc64: the 64 of one m64n128 chain, steps 19 and 20; gh_fence_acc96: the
 * 96 of one m64n192 chain, step 21). */
__device__ static inline void gh_fence_acc(float d[128])
{
#pragma unroll
  for (int i = 0; i < 128; ++i) asm volatile("" : "+f"(d[i]) :: "memory");
}
__device__ static inline void gh_fence_acc64(float d[64])
{
#pragma unroll
  for (int i = 0; i < 64; ++i) asm volatile("" : "+f"(d[i]) :: "memory");
}
__device__ static inline void gh_fence_acc96(float d[96])
{
#pragma unroll
  for (int i = 0; i < 96; ++i) asm volatile("" : "+f"(d[i]) :: "memory");
}

/* D(64,256) += A(64,16) * B(16,256): A m-major (transposed, imm-trans-a = 1), B k-major; accumulate
 * = 0 ignores D's old value. */
__device__ static inline void gh_wgmma_256(float d[128], uint64_t da, uint64_t db, int accumulate)
{
  asm volatile(
    "{\n .reg .pred p;\n setp.ne.b32 p, %130, 0;\n"
    " wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {"
    "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
    "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
    "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
    "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,"
    "%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,"
    "%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,"
    "%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111,"
    "%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127"
    "}, %128, %129, p, 1, 1, 1, 0;\n}\n"
    : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
      "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
      "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
      "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
      "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
      "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
      "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
      "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
      "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
      "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
      "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
      "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
      "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
      "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
      "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
      "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
    : "l"(da), "l"(db), "r"(accumulate));
}

/* D(64,128) += A(64,16) * B(16,128): as gh_wgmma_256, half as wide, always accumulating (steps 16, 19) */
__device__ static inline void gh_wgmma_128(float *d, uint64_t da, uint64_t db)
{
  asm volatile(
    "{\n .reg .pred p;\n setp.eq.u32 p, 1, 1;\n"
    " wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {"
    "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
    "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
    "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
    "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63"
    "}, %64, %65, p, 1, 1, 1, 0;\n}\n"
    : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
      "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
      "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
      "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
      "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
      "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
      "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
      "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
    : "l"(da), "l"(db));
}

/* D(64,192) += A(64,16) * B(16,192): as gh_wgmma_256, three quarters as wide (96 accumulators),
 * always accumulating (step 21) */
__device__ static inline void gh_wgmma_192(float *d, uint64_t da, uint64_t db)
{
  asm volatile(
    "{\n .reg .pred p;\n setp.eq.u32 p, 1, 1;\n"
    " wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16 {"
    "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
    "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
    "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
    "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,"
    "%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,"
    "%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95"
    "}, %96, %97, p, 1, 1, 1, 0;\n}\n"
    : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
      "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
      "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
      "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
      "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
      "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
      "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
      "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
      "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
      "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
      "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
      "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])
    : "l"(da), "l"(db));
}

/* D(64,96) += A(64,16) * B(16,96): as gh_wgmma_192, half as wide (48 accumulators), always
 * accumulating (step 26's (192,96) tiles) */
__device__ static inline void gh_wgmma_96(float *d, uint64_t da, uint64_t db)
{
  asm volatile(
    "{\n .reg .pred p;\n setp.eq.u32 p, 1, 1;\n"
    " wgmma.mma_async.sync.aligned.m64n96k16.f32.bf16.bf16 {"
    "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
    "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
    "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47"
    "}, %48, %49, p, 1, 1, 1, 0;\n}\n"
    : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
      "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
      "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
      "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
      "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
      "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47])
    : "l"(da), "l"(db));
}

// ANCHOR: mma_ktile
/* One k tile for one consumer warpgroup: its (64,64) slice of A (box `wg` of the stage) times the
 * stage's (64,256) of B, as four k16 MMAs; the descriptors step by 2048 bytes (A: 16 k rows of 128
 * bytes) and by 32 bytes (B: 16 k of a 128-byte row, inside the swizzle, as the hardware expects). */
__device__ static inline void gh_mma_ktile(float acc[128], const uint8_t *sA, const uint8_t *sB, int wg)
{
  uint64_t da = gh_desc(sA + wg * GH_BOX_A, GH_BOX_A, 1024), db = gh_desc(sB, 16, 1024);
  gh_wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < GH_BK / 16; ++kk)
    gh_wgmma_256(acc, gh_desc_add(da, kk * 2048), gh_desc_add(db, kk * 32), 1);
  gh_wgmma_commit();
}
// ANCHOR_END: mma_ktile

// ANCHOR: epilogue
/* The epilogue: accumulator d[4j + 2h + e] of thread t of the warpgroup is element
 *   row 16 (t/32) + (t%32)/4 + 8h,  column 8j + 2 (t%4) + e   of the warpgroup's (64, 8 groups)
 * tile -- (64,256) for groups = 32 --, written straight to C (column-major): for each store a warp
 * covers 4 columns x 8 rows, four full 32-byte sectors.  Every element is predicated on
 * (row < M, column < N).  `groups` is a constant where it is called, so the loops unroll. */
__device__ static inline void gh_epilogue_cols(const float *acc, int groups, int row0, int col0, int M, int N,
                                               float alpha, float beta, float *C, int ldc)
{
  int t = threadIdx.x % 128;
  int r = row0 + 16 * (t / 32) + (t % 32) / 4, c0 = col0 + 2 * (t % 4);
#pragma unroll
  for (int j = 0; j < groups; ++j)
#pragma unroll
    for (int h = 0; h < 2; ++h)
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        int row = r + 8 * h, col = c0 + 8 * j + e;
        if (row < M && col < N) {
          float *c = C + row + (size_t)col * ldc;
          *c = gemm_epilogue(acc[4 * j + 2 * h + e], alpha, beta, c);
        }
      }
}
__device__ static inline void gh_epilogue(const float acc[128], int row0, int col0, int M, int N, float alpha,
                                          float beta, float *C, int ldc)
{
  gh_epilogue_cols(acc, 32, row0, col0, M, N, alpha, beta, C, ldc);
}
// ANCHOR_END: epilogue

// ANCHOR: epilogue_tma
/* The epilogue through shared memory (step 17; also the best path's Stream-K, step 15's kernel):
 * C leaves by TMA stores from GH_STAGING bytes of staging buffers, 2 per consumer warpgroup. */
#define GH_STAGING (2 * 2 * 8192)               /* 2 warpgroups x 2 buffers x (64 rows, 32 columns) fp32 */
/* the 128 threads of consumer warpgroup c (named barrier 2 + c: 2 to 4; 1 is the consumers' together) */
__device__ static inline void gh_wg_sync(int c)
{
  if (c == 0) asm volatile("bar.sync 2, 128;\n" ::: "memory");
  else if (c == 1) asm volatile("bar.sync 3, 128;\n" ::: "memory");
  else asm volatile("bar.sync 4, 128;\n" ::: "memory");
}
__device__ static inline void gh_fence_proxy_async(void) { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }
__device__ static inline void gh_tma_store(const CUtensorMap *map, const void *src, int c0, int c1)
{
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n"
               :: "l"((uint64_t)map), "r"(gh_smem(src)), "r"(c0), "r"(c1) : "memory");
}
__device__ static inline void gh_store_commit(void) { asm volatile("cp.async.bulk.commit_group;\n" ::: "memory"); }
__device__ static inline void gh_store_wait_read1(void) { asm volatile("cp.async.bulk.wait_group.read 1;\n" ::: "memory"); }
__device__ static inline void gh_store_wait_all(void) { asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory"); }
__device__ static inline void gh_store_wait_read_all(void) { asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory"); }

/* The byte of element (row, col) of a (64 rows, 32 columns) slice staged for TMA stores: rows 0-31,
 * then rows 32-63, each a box of 32 columns of 128 bytes; element (r, col) of a box at byte
 * 128 col + 16 ((r / 4) ^ (col % 8)) + 4 (r % 4). */
__device__ static inline int gh_staged_byte(int row, int col)
{
  int rr = row % 32;
  return (row / 32) * 4096 + col * 128 + (((rr / 4) ^ (col % 8)) * 16) + (rr % 4) * 4;
}
/* Slice q (columns 32q .. 32q + 31) of the warpgroup's accumulators, times alpha, into the 8 KiB
 * buffer `buf`: accumulator 4 j + 2 h + e of thread t is row 16 (t/32) + (t%32)/4 + 8 h, column
 * 8 j + 2 (t%4) + e of the warpgroup's tile (gh_epilogue_cols). */
__device__ static inline void gh_stage_slice(uint8_t *buf, const float *acc, int q, float alpha)
{
  int t = threadIdx.x % 128;
  int r = 16 * (t / 32) + (t % 32) / 4;
#pragma unroll
  for (int jj = 0; jj < 4; ++jj)
#pragma unroll
    for (int h = 0; h < 2; ++h)
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        int row = r + 8 * h, col = 8 * jj + 2 * (t % 4) + e;
        *(float *)(buf + gh_staged_byte(row, col)) = alpha * acc[4 * (4 * q + jj) + 2 * h + e];
      }
}
/* Slice `src` of `from` (16 floats a thread, as gh_stage_slice reads them), times alpha, into
 * buffer nb % bufs of the `bufs` 8 KiB buffers (1 or 2) at `stage`, then by two TMA stores, which
 * thread t = 0 of the warpgroup issues, to the 32 columns col0 + 32 q of C: with 2 buffers, a slice
 * is staged while the TMA unit reads the one before; with 1, each waits for the read. */
__device__ static inline void gh_put_slice(const float *from, int src, int q, int bufs, int nb, uint8_t *stage,
                                           const CUtensorMap *tC, int c, int t, int row0, int col0, float alpha)
{
  uint8_t *buf = stage + (nb % bufs) * 8192;
  gh_stage_slice(buf, from, src, alpha);
  gh_fence_proxy_async();                               // the writes, visible to the TMA unit ...
  gh_wg_sync(c);                                        // ... once all 128 threads have made them
  if (t == 0) {
    gh_tma_store(tC, buf, row0, col0 + 32 * q);
    gh_tma_store(tC, buf + 4096, row0 + 32, col0 + 32 * q);
    gh_store_commit();
    if (bufs == 2) gh_store_wait_read1();               // the other buffer has been read out
    else gh_store_wait_read_all();                      // this one has
  }
  gh_wg_sync(c);                                        // so it may be written again
}
/* C = alpha * acc for the warpgroup's (64, 32 slices) at (row0, col0), slice by slice (laid out as
 * gh_staged_byte says).  `slices` and `bufs` are constants where it is called (6 and 1: a (64,192)
 * part, step 21; 8 and 2: a (64,256) part, steps 14, 15 and 17 in the best path). */
__device__ static inline void gh_epilogue_tma_slices(const float *acc, int slices, int bufs, uint8_t *stage,
                                                     const CUtensorMap *tC, int c, int row0, int col0, float alpha)
{
  int t = threadIdx.x % 128;
#pragma unroll
  for (int q = 0; q < slices; ++q) gh_put_slice(acc, q, q, bufs, q, stage, tC, c, t, row0, col0, alpha);
}
__device__ static inline void gh_epilogue_tma(const float acc[128], uint8_t *stage, const CUtensorMap *tC, int c, int row0,
                                              int col0, float alpha)
{
  gh_epilogue_tma_slices(acc, 8, 2, stage, tC, c, row0, col0, alpha);
}
// ANCHOR_END: epilogue_tma

// ANCHOR: held
/* Step 17's epilogue where K <= GH_HOLD_MAX_K: the last GH_HOLD slices of a (64,256) part wait in
 * registers and leave during the next tile's k loop, slice j after the MMAs of k tile GH_HOLD_AT(j)
 * (counted from 0) are issued, while the tensor cores run them; above it, all eight slices leave at
 * the tile's end (17_tma_store.cu has the measurements) */
#define GH_HOLD 3
#define GH_HOLD_AT(j) (2 + 2 * (j))
#define GH_HOLD_MAX_K 2048
typedef struct gh_held {
  float v[16 * GH_HOLD];                                // slices 8 - GH_HOLD .. 7, as in the accumulators
  int row0, col0;                                       // where they go; row0 < 0: nothing held
  int nb;                                               // slices staged so far (which buffer is next)
} gh_held;
__device__ static inline void gh_held_put(gh_held *h, int j, uint8_t *stage, const CUtensorMap *tC, int c,
                                          float alpha)
{
  gh_put_slice(h->v, j, 8 - GH_HOLD + j, 2, h->nb++, stage, tC, c, threadIdx.x % 128, h->row0, h->col0, alpha);
}
/* the part's first 8 - GH_HOLD slices to C, the others into h */
__device__ static inline void gh_epilogue_tma_hold(const float acc[128], gh_held *h, uint8_t *stage,
                                                   const CUtensorMap *tC, int c, int row0, int col0,
                                                   float alpha)
{
#pragma unroll
  for (int q = 0; q < 8 - GH_HOLD; ++q)
    gh_put_slice(acc, q, q, 2, h->nb++, stage, tC, c, threadIdx.x % 128, row0, col0, alpha);
#pragma unroll
  for (int i = 0; i < 16 * GH_HOLD; ++i) h->v[i] = acc[16 * (8 - GH_HOLD) + i];
  h->row0 = row0;
  h->col0 = col0;
}
/* in the k loop, after k tile kt's MMAs are issued: the held slice due there, if any */
__device__ static inline void gh_held_during(gh_held *h, int kt, uint8_t *stage, const CUtensorMap *tC, int c,
                                             float alpha)
{
  if (h->row0 < 0) return;
#pragma unroll
  for (int j = 0; j < GH_HOLD; ++j)
    if (kt == GH_HOLD_AT(j)) gh_held_put(h, j, stage, tC, c, alpha);
  if (kt == GH_HOLD_AT(GH_HOLD - 1)) h->row0 = -1;
}
/* after a k loop of `ktiles` k tiles (or, with ktiles 0, at the end): the held slices it was too
 * short for */
__device__ static inline void gh_held_rest(gh_held *h, int ktiles, uint8_t *stage, const CUtensorMap *tC, int c,
                                           float alpha)
{
  if (h->row0 < 0) return;
#pragma unroll
  for (int j = 0; j < GH_HOLD; ++j)
    if (GH_HOLD_AT(j) >= ktiles) gh_held_put(h, j, stage, tC, c, alpha);
  h->row0 = -1;
}
// ANCHOR_END: held
/* C = alpha * acc for the warpgroup's (64, 32 slices) at (row0, col0) where 8 KiB a slice of shared
 * memory are free (the stages, once the k loop is done): all slices staged at once in `stage`, so
 * nothing waits for the TMA unit to read a buffer out, then 2 TMA stores a slice.  `slices` is a
 * constant where it is called: 4, a (64,128) part (steps 19 and 20), or 3, a (64,96) one (step 29). */
__device__ static inline void gh_epilogue_tma_whole(const float *acc, int slices, uint8_t *stage,
                                                   const CUtensorMap *tC, int c, int row0, int col0, float alpha)
{
  int t = threadIdx.x % 128;
#pragma unroll
  for (int q = 0; q < slices; ++q) gh_stage_slice(stage + q * 8192, acc, q, alpha);
  gh_fence_proxy_async();                               // the writes, visible to the TMA unit ...
  gh_wg_sync(c);                                        // ... once all 128 threads have made them
  if (t == 0) {
#pragma unroll
    for (int q = 0; q < slices; ++q) {
      gh_tma_store(tC, stage + q * 8192, row0, col0 + 32 * q);
      gh_tma_store(tC, stage + q * 8192 + 4096, row0 + 32, col0 + 32 * q);
    }
    gh_store_commit();
    gh_store_wait_read_all();                           // the CTA's shared memory is read out before it
  }                                                     // ends (the writes need not have landed: the grid's
}                                                       // end waits for them)

__device__ static inline void gh_zero_acc(float acc[128])
{
#pragma unroll
  for (int i = 0; i < 128; ++i) acc[i] = 0.0f;
}

/* The shared-memory plan: S stages of A and B, then S `full` and S `empty` barriers. */
typedef struct gh_smem_plan { uint8_t *a, *b; uint64_t *full, *empty; } gh_smem_plan;
__device__ static inline gh_smem_plan gh_plan(uint8_t *raw, int S)
{
  gh_smem_plan p;
  uint8_t *base = (uint8_t *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023);
  p.a = base;
  p.b = base + S * GH_STAGE_A;
  p.full = (uint64_t *)(base + S * (GH_STAGE_A + GH_STAGE_B));
  p.empty = p.full + S;
  return p;
}
/* The same plan with step 17's staging buffers (GH_STAGING bytes) after the barriers, at the next
 * 1024-byte boundary (steps 15 and 17).  A launch without the TMA-store epilogue asks for
 * GH_SMEM_STAGED(S) - GH_STAGING bytes: the buffers are not there, and the SM may keep that much
 * more of its memory as L1 cache.  (Measured on an H100 with the buffers reserved and without, two
 * runs each: step 17's launcher at 8192^3 1.67-1.73 ms against 1.65-1.69, at 12288^3 5.43-5.65
 * against 5.17-5.69 -- within the runs' spread.) */
#define GH_SMEM_STAGED(S) ((S) * (GH_STAGE_A + GH_STAGE_B) + 1024 + GH_STAGING + 1024)
__device__ static inline gh_smem_plan gh_plan_staged(uint8_t *raw, int S, uint8_t **staging)
{
  gh_smem_plan p = gh_plan(raw, S);
  *staging = (uint8_t *)p.full + 1024;
  return p;
}

// ANCHOR: load_ktile
/* The loads of k tile kt of CTA tile (tm, tn) into stage s: A's two (64,64) boxes, B's two (64,128)
 * boxes, 48 KiB counted on full[s]. */
__device__ static inline void gh_load_ktile(const gh_smem_plan *p, int s, const CUtensorMap *ta, const CUtensorMap *tb,
                                            int tm, int tn, int kt)
{
  uint64_t *bar = &p->full[s];
  gh_bar_expect(bar, GH_STAGE_A + GH_STAGE_B);
  uint8_t *a = p->a + s * GH_STAGE_A, *b = p->b + s * GH_STAGE_B;
  gh_tma_load(a, ta, bar, tm * GH_BM, kt * GH_BK);
  gh_tma_load(a + GH_BOX_A, ta, bar, tm * GH_BM + 64, kt * GH_BK);
  gh_tma_load(b, tb, bar, kt * GH_BK, tn * GH_BN);
  gh_tma_load(b + GH_BOX_B, tb, bar, kt * GH_BK, tn * GH_BN + 128);
}
// ANCHOR_END: load_ktile
/* The same in a cluster of 2 CTAs (steps 14, 23 and 27), CTA `rank` of it: one of the two boxes of
 * the operand they share, multicast to both, and all of the other operand; 48 KiB counted on
 * full[s] either way (the peer's box arrives on it too). */
__device__ static inline void gh_load_ktile_shared(const gh_smem_plan *p, int s, const CUtensorMap *tA,
                                                   const CUtensorMap *tB, int tm, int tn, int kt, uint32_t rank,
                                                   int share_a)
{
  uint64_t *bar = &p->full[s];
  uint8_t *a = p->a + s * GH_STAGE_A, *b = p->b + s * GH_STAGE_B;
  gh_bar_expect(bar, GH_STAGE_A + GH_STAGE_B);           // the shared operand: my box, the peer's box
  // ANCHOR: share_a
  if (share_a) {                                         // step 23: my box of A for both, my whole B
    gh_tma_load_multicast(a + rank * GH_BOX_A, tA, bar, tm * GH_BM + 64 * (int)rank, kt * GH_BK, 0x3);
    gh_tma_load(b, tB, bar, kt * GH_BK, tn * GH_BN);
    gh_tma_load(b + GH_BOX_B, tB, bar, kt * GH_BK, tn * GH_BN + 128);
  } else {                                               // my whole A, my box of B for both
    gh_tma_load(a, tA, bar, tm * GH_BM, kt * GH_BK);
    gh_tma_load(a + GH_BOX_A, tA, bar, tm * GH_BM + 64, kt * GH_BK);
    gh_tma_load_multicast(b + rank * GH_BOX_B, tB, bar, kt * GH_BK, tn * GH_BN + 128 * (int)rank, 0x3);
  }
  // ANCHOR_END: share_a
}

/* (192,192) tiles (steps 21 and 22) ----------------------------------------------------------- */
/* The CTA tile local_tile(mC, (_192,_192), (tm,tn)): three consumer warpgroups, consumer c (0..2)
 * computing local_tile(tile, (_64,_192), (c,_0)) with one m64n192k16 chain, 96 accumulators per
 * thread.  A stage holds A's three (64 m, 64 k) boxes (24 KiB) and one (64 k, 192 n) box of B
 * (24 KiB).  Shared memory: GH192_STAGES stages, their full and empty barriers in a 1024-byte
 * block, one 8 KiB staging buffer per consumer for the TMA-store epilogue (two, as step 17 has,
 * do not fit beside 4 stages; a launch without that epilogue leaves them out: GH192_STAGING
 * bytes less). */
// ANCHOR: tile_192
#define GH192_BM 192
#define GH192_BN 192
#define GH192_STAGES 4
#define GH192_STAGE_A (GH192_BM * GH_BK * 2)    /* 24 KiB: three (64 m, 64 k) boxes of A */
#define GH192_STAGE_B (GH192_BN * GH_BK * 2)    /* 24 KiB: one (64 k, 192 n) box of B */
#define GH192_STAGING (3 * 8192)                /* one (64 rows, 32 columns) fp32 buffer per consumer */
#define GH192_SMEM (GH192_STAGES * (GH192_STAGE_A + GH192_STAGE_B) + 1024 + GH192_STAGING)
/* Every address is the start of dynamic shared memory plus a constant, so that no pointer takes
 * registers (the 96 accumulators and step 22's fix-up leave few): the start must lie on 1024 bytes,
 * as it does where a kernel has no static shared memory (it follows the 1 KiB the system reserves);
 * where it does not, the kernel traps rather than compute with a wrong swizzle. */
typedef struct gh192_smem { uint8_t *base; } gh192_smem;
__device__ static inline gh192_smem gh192_plan(uint8_t *raw)
{
  if (gh_smem(raw) % 1024 != 0) __trap();
  gh192_smem p = { raw };
  return p;
}
#define GH192_B_AT (GH192_STAGES * GH192_STAGE_A)                     /* B's stages after A's */
#define GH192_BARS_AT (GH192_B_AT + GH192_STAGES * GH192_STAGE_B)     /* then the barriers ... */
#define GH192_STAGING_AT (GH192_BARS_AT + 1024)                       /* ... and the staging buffers */
__device__ static inline uint8_t *gh192_a(const gh192_smem *p, int s) { return p->base + s * GH192_STAGE_A; }
__device__ static inline uint8_t *gh192_b(const gh192_smem *p, int s) { return p->base + GH192_B_AT + s * GH192_STAGE_B; }
__device__ static inline uint64_t *gh192_full(const gh192_smem *p, int s) { return (uint64_t *)(p->base + GH192_BARS_AT) + s; }
__device__ static inline uint64_t *gh192_empty(const gh192_smem *p, int s)
{
  return (uint64_t *)(p->base + GH192_BARS_AT) + GH192_STAGES + s;
}
__device__ static inline uint8_t *gh192_staging(const gh192_smem *p, int c) { return p->base + GH192_STAGING_AT + c * 8192; }
/* thread 0, before the CTA's first barrier: the tensor maps prefetched, the stages' barriers made
 * (full: the producer's one arrival and the bytes; empty: the 12 consumer warps of each of the
 * `ctas` CTAs that use the stage's data, 1, or 2 in a cluster that shares B) */
__device__ static inline void gh192_setup(const gh192_smem *p, const CUtensorMap *tA, const CUtensorMap *tB,
                                          const CUtensorMap *tC, int tma_c, int ctas)
{
  gh_tma_prefetch_map(tA);
  gh_tma_prefetch_map(tB);
  if (tma_c) gh_tma_prefetch_map(tC);
  for (int s = 0; s < GH192_STAGES; ++s) {
    gh_bar_init(gh192_full(p, s), 1);
    gh_bar_init(gh192_empty(p, s), 12 * ctas);
  }
  gh_fence_bar_init();
}
/* the producer: k tile kt of CTA tile (tm, tn) into stage s, 24 KiB + bn x 128 bytes counted on
 * full[s] (48 KiB at bn = 192); for step 26's (192,bn) tiles (bn 96 or 128, B's map in boxes of bn
 * columns), B's box is (64 k, bn n) and fills the first bn rows of the stage's B */
__device__ static inline void gh192_load_ktile(const gh192_smem *p, int s, const CUtensorMap *tA, const CUtensorMap *tB,
                                               int tm, int tn, int kt, int bn)
{
  uint8_t *a = gh192_a(p, s);
  uint64_t *full = gh192_full(p, s);
  gh_bar_expect(full, GH192_STAGE_A + bn * GH_BK * 2);
#pragma unroll
  for (int j = 0; j < 3; ++j) gh_tma_load(a + j * GH_BOX_A, tA, full, tm * GH192_BM + 64 * j, kt * GH_BK);
  gh_tma_load(gh192_b(p, s), tB, full, kt * GH_BK, tn * bn);
}
// ANCHOR: load_shared_192
/* the same in a cluster of 2 along m that shares B (step 24): A's three boxes, and B's (64 k, 96 n)
 * half `rank` of the (64,192) slice for both CTAs (B's map in boxes of 96 columns) */
__device__ static inline void gh192_load_ktile_shared(const gh192_smem *p, int s, const CUtensorMap *tA,
                                                      const CUtensorMap *tB, int tm, int tn, int kt, uint32_t rank)
{
  uint8_t *a = gh192_a(p, s);
  uint64_t *full = gh192_full(p, s);
  gh_bar_expect(full, GH192_STAGE_A + GH192_STAGE_B);
#pragma unroll
  for (int j = 0; j < 3; ++j) gh_tma_load(a + j * GH_BOX_A, tA, full, tm * GH192_BM + 64 * j, kt * GH_BK);
  gh_tma_load_multicast(gh192_b(p, s) + rank * (GH192_STAGE_B / 2), tB, full, kt * GH_BK,
                        tn * GH192_BN + 96 * (int)rank, 0x3);
}
// ANCHOR_END: load_shared_192
/* a consumer warp is done with stage s: it tells its own producer, and in a cluster the peer's too */
__device__ static inline void gh192_release(const gh192_smem *p, int s, int cluster, uint32_t rank)
{
  if (cluster) gh_release_pair(gh192_empty(p, s), rank);
  else if (threadIdx.x % 32 == 0) gh_bar_arrive(gh192_empty(p, s));
}

/* consumer c: its (64,64) slice of A (box c of the stage) times the stage's (64,bn) of B: bn = 192
 * (steps 21, 22), or 128 or 96 (step 26, the first 64 or 48 accumulators); bn is a constant where
 * it is called, so one chain of MMAs is compiled */
__device__ static inline void gh192_mma_ktile(float acc[96], const gh192_smem *p, int s, int c, int bn)
{
  const uint8_t *a = gh192_a(p, s) + c * GH_BOX_A, *b = gh192_b(p, s);
  uint64_t da0 = gh_desc(a, GH_BOX_A, 1024), db0 = gh_desc(b, 16, 1024);
  gh_wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < GH_BK / 16; ++kk) {
    uint64_t da = gh_desc_add(da0, kk * 2048), db = gh_desc_add(db0, kk * 32);
    if (bn == 96) gh_wgmma_96(acc, da, db);
    else if (bn == 128) gh_wgmma_128(acc, da, db);
    else gh_wgmma_192(acc, da, db);
  }
  gh_wgmma_commit();
}
/* consumer c writes its (64,bn) part at (row0, col0): by TMA stores through its one staging
 * buffer (bn / 32 slices of 32 columns, each waiting for the read of the one before), or from the
 * registers; nothing where the part lies past M (bn a constant where it is called, as above) */
__device__ static inline void gh192_epilogue(const float acc[96], const gh192_smem *p, int tma_c, const CUtensorMap *tC,
                                             int c, int row0, int col0, int M, int N, float alpha, float beta,
                                             float *C, int ldc, int bn)
{
  if (row0 >= M) return;
  if (tma_c) gh_epilogue_tma_slices(acc, bn / 32, 1, gh192_staging(p, c), tC, c, row0, col0, alpha);
  else gh_epilogue_cols(acc, bn / 8, row0, col0, M, N, alpha, beta, C, ldc);
}
// ANCHOR_END: tile_192

#endif /* __CUDACC__ */
#endif
