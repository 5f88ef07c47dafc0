/* Lab 07 -- a GEMM from naive to cuBLAS class: the runner.
 *
 * What it shows
 *   A ladder of kernels for C = alpha * A * B + beta * C (column-major, leading dimensions, BLAS's
 *   convention), one kernel per file, all behind one launcher signature per precision:
 *     0  cublas                   the reference (fp32: SGEMM in pedantic fp32 math, no TF32;
 *                                 bf16: cublasGemmEx, bf16 A and B, fp32 C, CUBLAS_COMPUTE_32F)
 *     1  1_naive                  fp32, one thread per element
 *     2  2_smem_local_tile        fp32, CTA tiles in shared memory (local_tile)
 *     3  3_register_blocking      fp32, 8 x 8 elements per thread (local_partition)
 *     4  4_vectorized             fp32, 16-byte loads, conflict-free shared memory
 *     5  5_double_buffered        fp32, the next tile loads while this one computes
 *     6  6_warp_tiling            fp32, warp tiles
 *     7  7_mma_ldmatrix           bf16 tensor cores: mma.sync fed by ldmatrix
 *     8  8_mma_cp_async_swizzle   bf16: cp.async, 4 stages, swizzled shared memory
 *     9  9_mma_multistage_epilogue  bf16: fragments a k step ahead, 5 stages, C through shared memory
 *    10  10_fp32_tuned            fp32 again: a (128,256) CTA tile, 8 x 16 per thread
 *    31  31_fp32_cp_async         fp32: step 10's tile, its k tiles by cp.async into 4 stages, the
 *                                 copies spread over the k rows between the FMAs
 *    11  11_tma_wgmma             bf16 on Hopper (sm_90a): TMA into a 4-stage mbarrier ring, wgmma
 *    12  12_warp_specialized      bf16: a producer warpgroup, two consumers, setmaxnreg
 *    13  13_persistent            bf16: persistent CTAs on the tile scheduler of chapter 6
 *    14  14_cluster_multicast     bf16: clusters of 2 CTAs, B multicast by TMA
 *    15  15_stream_k              bf16: Stream-K, the k loops of the last waves shared out (chapter 6's
 *                                 scheduler), partial sums added by each tile's owner in a fixed order
 *    16  16_pingpong              bf16: each consumer warpgroup owns a (128,128) tile; the two take
 *                                 turns at the tensor cores, one's epilogue under the other's MMAs
 *    17  17_tma_store             bf16: step 13 with C written through shared memory by TMA stores;
 *                                 its launcher is the best path, by the shape (hopper.cu, gh_best_path)
 *    18  18_fp32_stream_k         fp32: step 31's k loop on persistent CTAs with chapter 6's Stream-K
 *                                 scheduler, or split-K where the tiles fit twice over, for problems
 *                                 of few tiles or a long k loop
 *    19  19_split_k               bf16: small problems, each (128,128) tile's k loop cut between 2 to
 *                                 64 CTAs, the parts added in a fixed order (by the last part, or
 *                                 shared out among them all)
 *    20  20_small_tiles           bf16: small problems, (64,128) tiles, one a CTA, in clusters of 2
 *                                 that share B where the operands' rows straddle cache lines
 *    21  21_tile_192              bf16: (192,192) tiles, three consumer warpgroups, for shapes whose
 *                                 waves (128,256) tiles fill badly
 *    22  22_stream_k_192          bf16: Stream-K over (192,192) tiles, step 15's schedule and fix-up
 *                                 with step 21's tile
 *    23  23_clusters_share_a      bf16: step 14's clusters turned along n, sharing A by TMA multicast,
 *                                 for A's columns off 128-byte lines
 *    24  24_clusters_192          bf16: step 21's (192,192) tiles in clusters of 2 along m, sharing B
 *                                 by TMA multicast, for B's columns off lines below three waves
 *    25  25_narrow                bf16: skinny problems, (64,64) tiles with C's narrow side (M or N,
 *                                 64 or less) on the MMA's n, each k loop in parts added up by the
 *                                 last part to finish, A's box shared in clusters where M is narrow
 *    26  26_tile_192_narrow       bf16: step 21's kernel with (192,128) or (192,96) tiles, for problems
 *                                 of a few waves whose (128,256) tiles leave SMs idle
 *    27  27_stream_k_clusters     bf16: step 15's Stream-K over pairs of tiles along m, each pair in a
 *                                 cluster of 2 that shares B by TMA multicast, as step 14's does
 *   Steps 11-17 and 19-27 need an sm_90 GPU (elsewhere they run step 9); hopper.cu says which problems they
 *   hand to step 9 or to the predicated step 8 instead, and 13, 14 and 23 give small ones to step 12;
 *   17 gives problems to steps 25, 26, 27, 14, 23, 24, 21, 22, 15, 16, 19, 20 or 12 where the shape says they
 *   are faster.  The best paths' kernels (12 and 15-30, fp32 step 18 among them) start with
 *   programmatic dependent launch (--pdl 0: without).
 *   Any M, N, K >= 1 and any leading dimension >= the rows; every kernel predicates its ragged
 *   tiles (the identity-tensor test of chapter 5) and reads or writes nothing out of bounds.
 *
 * Build and run
 *   make run LAB=07                          (or: make build/bin/07_gemm && build/bin/07_gemm)
 *   build/bin/07_gemm --check-only           verify every version, time nothing
 *   build/bin/07_gemm --quick                fewer sizes and shapes
 *   build/bin/07_gemm --sizes 4096,4095x4097x1000 --versions 0,6,8 --shapes 0
 *   build/bin/07_gemm --csv FILE             also write the measurements as CSV
 *   build/bin/07_gemm --data DIR             the same, into DIR/gemm.csv (make gpu-data)
 *   build/bin/07_gemm --self-test            the host-only tests of the reference and the checks
 *   build/bin/07_gemm --schedules            time steps 13 and 14 under every raster and swizzle
 *   build/bin/07_gemm --choice               padded copy or predicated step 8, measured both ways
 *   build/bin/07_gemm --bench-shapes N       also time steps 9, 12-17, 19 and 20 at N random shapes
 *   build/bin/07_gemm --route LIST [--sms P]  which kernel the best path (step 17's launcher) runs for
 *                                            each size on a GPU of P SMs (default: this GPU's, or 132),
 *                                            and the estimates it weighs; then step 18's (fp32); host only
 *   build/bin/07_gemm --timeline DIR         when and where each unit of work ran, steps 12, 13, 15
 *                                            and 16 (DIR/07_timeline.dat; --data DIR writes it too)
 *   build/bin/07_gemm --launch-cost          instead of the timed windows: what a call costs the CPU,
 *                                            and the GPU with the CPU out of the way (queued calls)
 *   build/bin/07_gemm --cublas-choice LIST   what cuBLAS runs at each size (cuBLASLt's first choice on
 *                                            this GPU: tile, cluster, split-K), beside the best path's route
 *   build/bin/07_gemm --pdl 0                the best path's kernels with plain launches, not with
 *                                            programmatic dependent launch (hopper.h)
 *
 * What it prints
 *   the host algebra of the tilings and the self-test (deterministic), then, on a GPU, one
 *   PASS/FAIL line per version and check, then `bench:` lines (TFLOP/s and the ratio to cuBLAS).
 *   Verification comes first, every time: fresh random inputs per check (never zeros), C poisoned
 *   before each run, every element compared (first mismatch printed) with an fp64 CPU reference for
 *   small problems and with cuBLAS for large ones; a version that fails is never timed, and the
 *   program exits non-zero.  Without a GPU: the host part, then "no CUDA device: ...".
 */
#include "layout.h"
#include "layout_device.h"
#include "labkit.h"
#include <unistd.h>
#include "gemm.h"
#include "hopper.h"
#include <cublas_v2.h>
#include <cublasLt.h>
#include <math.h>

/* ------------------------------------------------------------------------------------------------
 * Host algebra: the tilings, computed by the library
 * ---------------------------------------------------------------------------------------------- */

static lt_val pair(int64_t a, int64_t b) { lt_val c[2] = { lt_int(a), lt_int(b) }; return lt_tuple_of(2, c); }
static lt_val spair(int64_t a, int64_t b) { lt_val c[2] = { lt_static(a), lt_static(b) }; return lt_tuple_of(2, c); }
static lt_layout col_major(int64_t rows, int64_t cols, int64_t ld)
{
  lt_val d[2] = { lt_static(1), lt_int(ld) };
  return lt_make_layout_sd(pair(rows, cols), lt_tuple_of(2, d));
}

// ANCHOR: tile_of
/* zipped_divide(mX, (bm,bk)) = ((bm,bk),(tiles_m,tiles_k)):((_1,ld),(bm,bk*ld)), flattened for the
 * device; the kernel needs the two strides of the rest mode (local_tile = this mode at a coordinate). */
gemm_tiling gemm_tile_of(int rows, int cols, int ld, int bm, int bk)
{
  lt_layout z = lt_zipped_divide(col_major(rows, cols, ld), spair(bm, bk));
  ltd_layout d;
  char err[256];
  if (ltd_from_layout(&z, &d, err, sizeof err) || d.nmodes != 2 || d.first[2] - d.first[1] != 2) {
    fprintf(stderr, "gemm_tile_of(%d,%d,%d,%d,%d): %s\n", rows, cols, ld, bm, bk, err);
    exit(1);
  }
  gemm_tiling t = { d.stride[d.first[1]], d.stride[d.first[1] + 1] };
  return t;
}
// ANCHOR_END: tile_of

static void show(const char *cute, const lt_val *v) { printf("  %-58s -> %s\n", cute, lt_str(v)); }
static void show_view(const char *cute, lt_view v) { printf("  %-58s -> %s o %s\n", cute, lt_str(&v.offset), lt_str(&v.layout)); }

static void host_algebra(void)
{
  printf("the tilings of a 4095 x 4095 problem (column-major, ld = 4095):\n");
  lt_view mA = lt_tensor(col_major(4095, 4095, 4095));
  show_view("mA = make_tensor(A, (4095,4095), (_1,4095))", mA);
  lt_layout z = lt_zipped_divide(mA.layout, spair(32, 32));
  show("step 2: zipped_divide(mA, (_32,_32))", &z);
  show_view("step 2: local_tile(mA, (_32,_32), (127,5))", lt_local_tile(&mA, spair(32, 32), pair(127, 5)));
  lt_view mB = lt_tensor(col_major(4095, 4095, 4095));
  show_view("step 3: local_tile(mB, (_8,_128), (511,31))", lt_local_tile(&mB, spair(8, 128), pair(511, 31)));
  lt_view sC = lt_tensor(lt_parse("(_128,_128):(_1,_128)", NULL));
  lt_layout thr = lt_parse("(_16,_16):(_1,_16)", NULL);
  show_view("step 3: local_partition(sC, (_16,_16):(_1,_16), 17)", lt_local_partition(&sC, thr, lt_int(17)));
  lt_view wC = lt_local_tile(&sC, spair(64, 32), pair(1, 2));
  show_view("step 6: warp 5's tile, local_tile(sC, (_64,_32), (1,2))", wC);
  // ANCHOR: hopper_views
  show_view("step 11: local_tile(mA, (_128,_64), (31,_))", lt_local_tile(&mA, spair(128, 64), lt_parse("(31,_)", NULL)));
  show_view("step 11: local_tile(mB, (_64,_256), (_,15))", lt_local_tile(&mB, spair(64, 256), lt_parse("(_,15)", NULL)));
  lt_view mC = lt_tensor(col_major(4095, 4095, 4095));
  show_view("step 11: local_tile(mC, (_128,_256), (31,15))", lt_local_tile(&mC, spair(128, 256), pair(31, 15)));
  lt_layout box = lt_parse("(_64,_64):(_2,_128)", NULL);             // A's TMA box, in bytes
  lt_val plain = lt_crd2idx(box, pair(37, 5));
  lt_val swz = lt_swizzle(lt_int(3), lt_int(4), lt_int(3), plain);
  printf("  %-58s -> %s, swizzled %s\n", "step 11: byte of (37,5) in A's box, (_64,_64):(_2,_128)", lt_str(&plain), lt_str(&swz));
  // ANCHOR_END: hopper_views
  printf("  ragged edges: 4095 = 31 * 128 + 127, so the last CTA row of tiles holds 127 real rows;\n"
         "  the identity tensor's coordinates decide, element by element, what is loaded and stored\n");
}

/* ------------------------------------------------------------------------------------------------
 * CPU reference and the checks
 * ---------------------------------------------------------------------------------------------- */

// ANCHOR: reference
/* C = alpha * A * B + beta * C0 in fp64 (C0 may be NULL: beta ignored).  Column-major, leading dims. */
static void gemm_ref_f64(int M, int N, int K, double alpha, const float *A, int lda, const float *B, int ldb,
                         double beta, const float *C0, int ldc0, double *R)
{
  for (int n = 0; n < N; ++n)
    for (int m = 0; m < M; ++m) {
      double s = 0;
      for (int k = 0; k < K; ++k) s += (double)A[m + (size_t)k * lda] * B[k + (size_t)n * ldb];
      R[m + (size_t)n * M] = alpha * s + (C0 ? beta * C0[m + (size_t)n * ldc0] : 0.0);
    }
}
// ANCHOR_END: reference

/* the same in fp32, the simplest order: only used to test the reference and the tolerance */
static void gemm_naive_f32(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb, float *R)
{
  for (int n = 0; n < N; ++n)
    for (int m = 0; m < M; ++m) {
      float s = 0;
      for (int k = 0; k < K; ++k) s += A[m + (size_t)k * lda] * B[k + (size_t)n * ldb];
      R[m + (size_t)n * M] = alpha * s;
    }
}

#define RTOL_F32  1e-4   /* fp32 accumulation: the error grows ~ eps * K, far under this bound */
#define RTOL_BF16 1e-3   /* bf16 products are exact in fp32; the looser bound covers other sum orders */

/* What a mismatch is called: "FAIL", except while the self-test plants errors on purpose,
 * so that a run's output holds the word FAIL only when something really failed. */
static const char *fail_word = "FAIL";

// ANCHOR: compare
/* got (M x N, leading dimension ldg) against want (M x N, packed).  An element passes when
 * |got - want| <= rtol * (|want| + scale), scale = |alpha| * sqrt(K) / 4 + |beta|: the typical size
 * of a sum of K products of numbers in [-1,1) (a relative test alone would fail near zero).  NaN
 * never passes.  The first mismatch is printed; the number of mismatches is returned. */
static size_t gemm_compare(const float *got, int ldg, const double *want, int M, int N, int K, double alpha,
                           double beta, double rtol, const char *what)
{
  double scale = fabs(alpha) * sqrt((double)K) / 4 + fabs(beta);
  size_t bad = 0;
  int fm = 0, fn = 0;
  for (int n = 0; n < N; ++n)
    for (int m = 0; m < M; ++m) {
      double g = got[m + (size_t)n * ldg], w = want[m + (size_t)n * M];
      if (!(fabs(g - w) <= rtol * (fabs(w) + scale))) { if (!bad) { fm = m; fn = n; } bad++; }
    }
  if (bad)
    printf("%s %s: %zu of %zu elements differ; first at (%d,%d): got %.9g, want %.9g\n", fail_word, what, bad,
           (size_t)M * N, fm, fn, got[fm + (size_t)fn * ldg], want[fm + (size_t)fn * M]);
  return bad;
}
// ANCHOR_END: compare

/* rows M..ldc-1 of every column of C are padding: still poisoned (all bits set) after the run? */
static size_t gemm_guard(const float *got, int M, int N, int ldc, const char *what)
{
  size_t bad = 0;
  for (int n = 0; n < N; ++n)
    for (int m = M; m < ldc; ++m) {
      uint32_t u;
      memcpy(&u, &got[m + (size_t)n * ldc], 4);
      if (u != 0xffffffffu) { if (!bad) printf("%s %s: padding (%d,%d) of C was written\n", fail_word, what, m, n); bad++; }
    }
  return bad;
}

static float bf16_round(float x) { return __bfloat162float(__float2bfloat16(x)); }

/* ------------------------------------------------------------------------------------------------
 * Self-test (host only): the reference, the comparison and the guard, on planted errors
 * ---------------------------------------------------------------------------------------------- */

static int st_failed = 0;
static void st_expect(int cond, const char *what) { printf("  %s %s\n", cond ? "ok  " : "FAIL", what); if (!cond) st_failed = 1; }

static int self_test(void)
{
  printf("self-test (host):\n");
  uint64_t seed = 12345;
  size_t bad_total = 0;
  double maxrel = 0;
  for (int t = 0; t < 40; ++t) {                     /* fp64 reference vs naive fp32, small shapes */
    int M = 1 + (int)(lk_rand64(&seed) % 40), N = 1 + (int)(lk_rand64(&seed) % 40), K = 1 + (int)(lk_rand64(&seed) % 300);
    int lda = M + (int)(lk_rand64(&seed) % 4), ldb = K + (int)(lk_rand64(&seed) % 4);
    float *A = (float *)LK_MALLOC(sizeof(float) * lda * K), *B = (float *)LK_MALLOC(sizeof(float) * ldb * N);
    float *R32 = (float *)LK_MALLOC(sizeof(float) * M * N);
    double *R64 = (double *)LK_MALLOC(sizeof(double) * M * N);
    lk_fill_random(A, (size_t)lda * K, lk_rand64(&seed));
    lk_fill_random(B, (size_t)ldb * N, lk_rand64(&seed));
    gemm_ref_f64(M, N, K, 1.5, A, lda, B, ldb, 0, NULL, 0, R64);
    gemm_naive_f32(M, N, K, 1.5f, A, lda, B, ldb, R32);
    double scale = 1.5 * sqrt((double)K) / 4;
    for (int i = 0; i < M * N; ++i) { double r = fabs(R32[i] - R64[i]) / (fabs(R64[i]) + scale); if (r > maxrel) maxrel = r; }
    size_t b = gemm_compare(R32, M, R64, M, N, K, 1.5, 0, RTOL_F32, "self-test reference");
    bad_total += b;
    free(A); free(B); free(R32); free(R64);
  }
  st_expect(bad_total == 0, "fp64 reference == naive fp32 GEMM within RTOL_F32, 40 random shapes up to 40x40x300");
  st_expect(maxrel < RTOL_F32 / 10, "  and the fp32 error stays 10x under the tolerance");

  /* planted errors: a 9 x 7 product, K = 64 */
  int M = 9, N = 7, K = 64;
  double want[63];
  float got[9 * 7], pad[10 * 7];
  for (int i = 0; i < M * N; ++i) { want[i] = sin(i + 1.0); got[i] = (float)want[i]; }
  double tol_at0 = RTOL_F32 * (fabs(want[0]) + sqrt((double)K) / 4);
  st_expect(gemm_compare(got, M, want, M, N, K, 1, 0, RTOL_F32, "clean") == 0, "a clean copy passes");
  got[0] = (float)(want[0] + 0.5 * tol_at0);
  st_expect(gemm_compare(got, M, want, M, N, K, 1, 0, RTOL_F32, "half tolerance") == 0, "an error of half the tolerance passes");
  fail_word = "caught:";
  got[0] = (float)(want[0] + 2 * tol_at0);
  st_expect(gemm_compare(got, M, want, M, N, K, 1, 0, RTOL_F32, "planted 2x tolerance at (0,0)") == 1, "an error of twice the tolerance at the first element is caught");
  got[0] = (float)want[0];
  got[M * N - 1] = NAN;
  st_expect(gemm_compare(got, M, want, M, N, K, 1, 0, RTOL_F32, "planted NaN at (8,6)") == 1, "a NaN at the last element is caught");
  got[M * N - 1] = (float)want[M * N - 1];
  got[4 + 3 * M] = -got[4 + 3 * M];
  st_expect(gemm_compare(got, M, want, M, N, K, 1, 0, RTOL_F32, "planted sign flip at (4,3)") == 1, "a flipped sign inside is caught");
  memset(pad, 0xff, sizeof pad);
  for (int n = 0; n < N; ++n) for (int m = 0; m < M; ++m) pad[m + n * 10] = 1.0f;
  st_expect(gemm_guard(pad, M, N, 10, "guard") == 0, "untouched padding rows of C pass the guard");

  pad[9 + 2 * 10] = 0.0f;
  st_expect(gemm_guard(pad, M, N, 10, "planted write at (9,2)") == 1, "a write into the padding rows is caught");
  fail_word = "FAIL";
  st_expect(bf16_round(1.0f + 1.0f / 256) == 1.0f && bf16_round(1.0f + 3.0f / 256) == 1.0f + 4.0f / 256,
            "bf16 rounding is to nearest, ties to even (1+2^-8 -> 1, 1+3*2^-8 -> 1+2^-6)");
  int balanced = 1;                                  /* the timing order (labkit.h, lk__turn_sequence) */
  for (int n = 1; n <= 20; ++n) {
    int seq[20 * 19 + 1], times[20] = { 0 }, follows[20][20] = { { 0 } }, len = lk__turn_sequence(n, seq);
    if (len != (n > 1 ? n * (n - 1) : 1)) { balanced = 0; continue; }
    for (int t = 0; t < len; ++t) {
      if (seq[t] < 0 || seq[t] >= n) { balanced = 0; break; }
      times[seq[t]]++;
      if (n > 1) follows[seq[t]][seq[(t + 1) % len]]++; /* the pair that closes the cycle counts too */
    }
    for (int i = 0; i < n; ++i) {
      if (times[i] != (n > 1 ? n - 1 : 1)) balanced = 0;
      for (int k = 0; k < n; ++k)
        if (n > 1 && follows[i][k] != (i != k)) balanced = 0;
    }
  }
  st_expect(balanced && lk__turn_sequence(0, NULL) == 0 && lk__turn_sequence(65, NULL) == 0,
            "timed in turns, every version comes right after every other equally often (2 to 20 versions)");
  printf("self-test: %s\n", st_failed ? "FAIL" : "PASS");
  return st_failed;
}

/* ------------------------------------------------------------------------------------------------
 * The versions
 * ---------------------------------------------------------------------------------------------- */

enum { F32, BF16 };
static const char *prec_name[2] = { "fp32", "bf16" };

typedef struct version {
  int id;
  const char *name;
  int prec;
  gemm_f32_fn f32;
  gemm_bf16_fn bf16;
} version;

static cublasHandle_t cublas_f32, cublas_bf16;

#define CUBLAS_CHECK(call) do { cublasStatus_t s_ = (call); if (s_ != CUBLAS_STATUS_SUCCESS) { \
  fprintf(stderr, "%s:%d: cuBLAS error %d in %s\n", __FILE__, __LINE__, (int)s_, #call); exit(1); } } while (0)

static void cublas_sgemm(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
                         float beta, float *C, int ldc)
{
  CUBLAS_CHECK(cublasSgemm(cublas_f32, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &alpha, A, lda, B, ldb, &beta, C, ldc));
}
static void cublas_bf16gemm(int M, int N, int K, float alpha, const bf16 *A, int lda, const bf16 *B, int ldb,
                            float beta, float *C, int ldc)
{
  CUBLAS_CHECK(cublasGemmEx(cublas_bf16, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &alpha, A, CUDA_R_16BF, lda, B,
                            CUDA_R_16BF, ldb, &beta, C, CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

static const version versions[] = {
  { 0, "cublas", F32, cublas_sgemm, NULL },
  { 0, "cublas", BF16, NULL, cublas_bf16gemm },
  { 1, "1_naive", F32, gemm_1_naive, NULL },
  { 2, "2_smem_local_tile", F32, gemm_2_smem_local_tile, NULL },
  { 3, "3_register_blocking", F32, gemm_3_register_blocking, NULL },
  { 4, "4_vectorized", F32, gemm_4_vectorized, NULL },
  { 5, "5_double_buffered", F32, gemm_5_double_buffered, NULL },
  { 6, "6_warp_tiling", F32, gemm_6_warp_tiling, NULL },
  { 10, "10_fp32_tuned", F32, gemm_10_fp32_tuned, NULL },
  { 31, "31_fp32_cp_async", F32, gemm_31_fp32_cp_async, NULL },
  { 18, "18_fp32_stream_k", F32, gemm_18_fp32_stream_k, NULL },
  { 7, "7_mma_ldmatrix", BF16, NULL, gemm_7_mma_ldmatrix },
  { 8, "8_mma_cp_async_swizzle", BF16, NULL, gemm_8_mma_cp_async_swizzle },
  { 9, "9_mma_multistage_epilogue", BF16, NULL, gemm_9_mma_multistage_epilogue },
  { 11, "11_tma_wgmma", BF16, NULL, gemm_11_tma_wgmma },
  { 12, "12_warp_specialized", BF16, NULL, gemm_12_warp_specialized },
  { 13, "13_persistent", BF16, NULL, gemm_13_persistent },
  { 14, "14_cluster_multicast", BF16, NULL, gemm_14_cluster_multicast },
  { 15, "15_stream_k", BF16, NULL, gemm_15_stream_k },
  { 16, "16_pingpong", BF16, NULL, gemm_16_pingpong },
  { 17, "17_tma_store", BF16, NULL, gemm_17_tma_store },
  { 19, "19_split_k", BF16, NULL, gemm_19_split_k },
  { 20, "20_small_tiles", BF16, NULL, gemm_20_small_tiles },
  { 21, "21_tile_192", BF16, NULL, gemm_21_tile_192 },
  { 22, "22_stream_k_192", BF16, NULL, gemm_22_stream_k_192 },
  { 23, "23_clusters_share_a", BF16, NULL, gemm_23_clusters_share_a },
  { 24, "24_clusters_192", BF16, NULL, gemm_24_clusters_192 },
  { 25, "25_narrow", BF16, NULL, gemm_25_narrow },
  { 26, "26_tile_192_narrow", BF16, NULL, gemm_26_tile_192_narrow },
  { 27, "27_stream_k_clusters", BF16, NULL, gemm_27_stream_k_clusters },
  { 28, "28_thin", BF16, NULL, gemm_28_thin },
  { 29, "29_one_wave", BF16, NULL, gemm_29_one_wave },
  { 30, "30_tall", BF16, NULL, gemm_30_tall },
};
#define MAX_ID 31
#define NVERSIONS ((int)(sizeof versions / sizeof versions[0]))

static int selected[MAX_ID + 1];   /* by id */
static const version *version_of(int id)
{
  for (int v = 0; v < NVERSIONS; ++v) if (versions[v].id == id) return &versions[v];
  return NULL;
}
static int any_selected(int prec)
{
  for (int v = 0; v < NVERSIONS; ++v) if (versions[v].prec == prec && versions[v].id && selected[versions[v].id]) return 1;
  return 0;
}

/* ------------------------------------------------------------------------------------------------
 * Verification on the device
 * ---------------------------------------------------------------------------------------------- */

typedef struct shape { int M, N, K, lda, ldb, ldc; } shape;

static void run_version(const version *v, const shape *s, float alpha, const void *A, const void *B, float beta, float *C)
{
  if (v->prec == F32) v->f32(s->M, s->N, s->K, alpha, (const float *)A, s->lda, (const float *)B, s->ldb, beta, C, s->ldc);
  else v->bf16(s->M, s->N, s->K, alpha, (const bf16 *)A, s->lda, (const bf16 *)B, s->ldb, beta, C, s->ldc);
}

/* the versions whose kernels start by programmatic dependent launch (hopper.h, gh_pdl) */
static int launches_pdl(int id) { return id == 12 || (id >= 15 && id <= 30); }
#define SMALL_FLOPS (1LL << 26)   /* M*N*K up to this: fp64 CPU reference; beyond: cuBLAS */

// ANCHOR: verify
/* Verify every selected version of precision prec on one shape: fresh random A, B and C0; run 1
 * with beta = 0 on a poisoned C, run 2 with beta != 0 on C0 (every element must be read and
 * written), and for the kernels launched with PDL, runs 3 and 4 back to back with no wait between
 * them, beta = 0 on a poisoned C and then beta = 1 (C = 2 alpha A B: the second call reads what the
 * first wrote); each compared with the reference.  Returns the number of failed checks. */
static int verify_shape(int prec, const shape *s, uint64_t seed)
{
  size_t na = (size_t)s->lda * s->K, nb = (size_t)s->ldb * s->N, nc = (size_t)s->ldc * s->N, mn = (size_t)s->M * s->N;
  size_t esz = prec == F32 ? 4 : 2;
  float *hA = (float *)LK_MALLOC(na * 4), *hB = (float *)LK_MALLOC(nb * 4), *hC0 = (float *)LK_MALLOC(nc * 4), *hC = (float *)LK_MALLOC(nc * 4);
  double *ref0 = (double *)LK_MALLOC(mn * 8), *ref1 = (double *)LK_MALLOC(mn * 8), *ref2 = (double *)LK_MALLOC(mn * 8);
  lk_fill_random(hA, na, seed * 3 + 1);
  lk_fill_random(hB, nb, seed * 3 + 2);
  lk_fill_random(hC0, nc, seed * 3 + 3);
  void *dA, *dB;
  float *dC, *dC0;
  LK_CHECK(cudaMalloc(&dA, na * esz));
  LK_CHECK(cudaMalloc(&dB, nb * esz));
  LK_CHECK(cudaMalloc(&dC, nc * 4));
  LK_CHECK(cudaMalloc(&dC0, nc * 4));
  if (prec == F32) {
    LK_CHECK(cudaMemcpy(dA, hA, na * 4, cudaMemcpyHostToDevice));
    LK_CHECK(cudaMemcpy(dB, hB, nb * 4, cudaMemcpyHostToDevice));
  } else {                                     /* bf16 on the device; the reference sees the same values */
    bf16 *t = (bf16 *)LK_MALLOC((na > nb ? na : nb) * 2);
    for (size_t i = 0; i < na; ++i) { t[i] = __float2bfloat16(hA[i]); hA[i] = __bfloat162float(t[i]); }
    LK_CHECK(cudaMemcpy(dA, t, na * 2, cudaMemcpyHostToDevice));
    for (size_t i = 0; i < nb; ++i) { t[i] = __float2bfloat16(hB[i]); hB[i] = __bfloat162float(t[i]); }
    LK_CHECK(cudaMemcpy(dB, t, nb * 2, cudaMemcpyHostToDevice));
    free(t);
  }
  LK_CHECK(cudaMemcpy(dC0, hC0, nc * 4, cudaMemcpyHostToDevice));
  float alpha = 0.75f + (float)(seed % 5) * 0.125f, beta = -0.5f;
  int small = (long long)s->M * s->N * s->K <= SMALL_FLOPS;
  const version *ref_v = &versions[prec == F32 ? 0 : 1];
  if (small) {
    gemm_ref_f64(s->M, s->N, s->K, alpha, hA, s->lda, hB, s->ldb, 0, NULL, 0, ref0);
  } else {                                     /* cuBLAS, itself checked against fp64 on the small shapes */
    lk_poison(dC, nc * 4);
    run_version(ref_v, s, alpha, dA, dB, 0.0f, dC);
    LK_CHECK(cudaMemcpy(hC, dC, nc * 4, cudaMemcpyDeviceToHost));
    for (int n = 0; n < s->N; ++n) for (int m = 0; m < s->M; ++m) ref0[m + (size_t)n * s->M] = hC[m + (size_t)n * s->ldc];
  }
  for (int n = 0; n < s->N; ++n)
    for (int m = 0; m < s->M; ++m) ref1[m + (size_t)n * s->M] = ref0[m + (size_t)n * s->M] + (double)beta * hC0[m + (size_t)n * s->ldc];
  for (size_t i = 0; i < mn; ++i) ref2[i] = 2 * ref0[i];
  double rtol = prec == F32 ? RTOL_F32 : RTOL_BF16;
  int failed = 0;
  for (int vi = 0; vi < NVERSIONS; ++vi) {
    const version *v = &versions[vi];
    if (v->prec != prec || !selected[v->id] || (v->id == 0 && !small)) continue;
    char what[160];
    snprintf(what, sizeof what, "%s %s %dx%dx%d ld (%d,%d,%d)", prec_name[prec], v->name, s->M, s->N, s->K, s->lda, s->ldb, s->ldc);
    lk_poison(dC, nc * 4);
    run_version(v, s, alpha, dA, dB, 0.0f, dC);
    LK_CHECK(cudaDeviceSynchronize());
    LK_CHECK(cudaMemcpy(hC, dC, nc * 4, cudaMemcpyDeviceToHost));
    size_t bad = gemm_compare(hC, s->ldc, ref0, s->M, s->N, s->K, alpha, 0, rtol, what) + gemm_guard(hC, s->M, s->N, s->ldc, what);
    LK_CHECK(cudaMemcpy(dC, dC0, nc * 4, cudaMemcpyDeviceToDevice));
    run_version(v, s, alpha, dA, dB, beta, dC);
    LK_CHECK(cudaDeviceSynchronize());
    LK_CHECK(cudaMemcpy(hC, dC, nc * 4, cudaMemcpyDeviceToHost));
    bad += gemm_compare(hC, s->ldc, ref1, s->M, s->N, s->K, alpha, beta, rtol, what);
    if (launches_pdl(v->id)) {                 /* two calls back to back, the second reading what the */
      lk_poison(dC, nc * 4);                   /* first writes: a launch that starts early (PDL) must */
      run_version(v, s, alpha, dA, dB, 0.0f, dC);   /* still wait for it */
      run_version(v, s, alpha, dA, dB, 1.0f, dC);
      LK_CHECK(cudaDeviceSynchronize());
      LK_CHECK(cudaMemcpy(hC, dC, nc * 4, cudaMemcpyDeviceToHost));
      bad += gemm_compare(hC, s->ldc, ref2, s->M, s->N, s->K, 2 * alpha, 1.0, rtol, what);
    }
    if (bad) failed++;
  }
  LK_CHECK(cudaFree(dA)); LK_CHECK(cudaFree(dB)); LK_CHECK(cudaFree(dC)); LK_CHECK(cudaFree(dC0));
  free(hA); free(hB); free(hC0); free(hC); free(ref0); free(ref1); free(ref2);
  return failed;
}
// ANCHOR_END: verify

/* ------------------------------------------------------------------------------------------------
 * Timing
 * ---------------------------------------------------------------------------------------------- */

typedef struct timed { const version *v; shape s; const void *A, *B; float *C; } timed;
static void timed_call(void *p) { timed *t = (timed *)p; run_version(t->v, &t->s, 1.0f, t->A, t->B, 0.0f, t->C); }

// ANCHOR: swizzle_check
/* TMA's 128-byte swizzle against the algebra: element (m,k) of A's (64 m, 64 k) box sits at byte
 * (64,64):(2,128) in a plain box; swizzled, at Swizzle<3,4,3> of that, computed by the library. */
static int swizzle_check(void)
{
  static int where[64 * 64];
  if (gh_swizzle_probe(where)) { printf("swizzle: no sm_90 GPU, TMA's swizzle not probed\n"); return 0; }
  lt_layout box = lt_parse("(64,64):(2,128)", NULL);
  lt_val b = lt_int(3), m = lt_int(4), s = lt_int(3);
  size_t bad = 0;
  for (int k = 0; k < 64; ++k)
    for (int mm = 0; mm < 64; ++mm) {
      lt_val byte = lt_crd2idx(box, pair(mm, k));
      lt_val want = lt_swizzle(b, m, s, byte);
      if (lt_value(&want) != where[mm + 64 * k]) {
        if (!bad) printf("FAIL swizzle: element (%d,%d) at byte %d, the algebra says %s\n", mm, k, where[mm + 64 * k], lt_str(&want));
        bad++;
      }
    }
  printf("swizzle: TMA put all 4096 elements of a (64,64) box where Swizzle<3,4,3> o (64,64):(2,128) says: %s\n",
         bad ? "FAIL" : "PASS");
  return bad != 0;
}
// ANCHOR_END: swizzle_check

/* Random shape i of the checks (and of --bench-shapes): M, N, K from 1 to 5000, every tenth with
 * M, N or K = 1, every other one with odd M and K, leading dimensions equal to the rows or a few
 * more (some odd: TMA's 16-byte rule fails for them). */
static shape random_shape(int i, uint64_t *rs)
{
  shape s;
  s.M = 1 + (int)(lk_rand64(rs) % 5000); s.N = 1 + (int)(lk_rand64(rs) % 5000); s.K = 1 + (int)(lk_rand64(rs) % 5000);
  if (i % 10 == 3) s.M = 1;
  if (i % 10 == 6) s.N = 1;
  if (i % 10 == 9) s.K = 1;
  if (i % 2) { s.M |= 1; s.K |= 1; }                               /* odd dimensions */
  int pad = (int)(lk_rand64(rs) % 4);                              /* ld = rows, or a little more */
  s.lda = s.M + (pad == 1 ? 3 : pad == 2 ? 8 : 0);
  s.ldb = s.K + (pad == 3 ? 5 : 0);
  s.ldc = s.M + (pad == 2 ? 1 : 0);
  return s;
}

/* device operands of one shape, filled with random values (bf16 or fp32) */
typedef struct operands { void *A, *B; float *C; } operands;
static operands operands_new(const shape *s, int prec, uint64_t seed)
{
  size_t na = (size_t)s->lda * s->K, nb = (size_t)s->ldb * s->N, nc = (size_t)s->ldc * s->N, esz = prec == F32 ? 4 : 2;
  operands o;
  float *h = (float *)LK_MALLOC((na > nb ? na : nb) * 4);
  LK_CHECK(cudaMalloc(&o.A, na * esz)); LK_CHECK(cudaMalloc(&o.B, nb * esz)); LK_CHECK(cudaMalloc(&o.C, nc * 4));
  for (int w = 0; w < 2; ++w) {
    size_t n = w ? nb : na;
    lk_fill_random(h, n, seed + w);
    if (prec == BF16) { bf16 *t = (bf16 *)h; for (size_t j = 0; j < n; ++j) t[j] = __float2bfloat16(h[j]); }
    LK_CHECK(cudaMemcpy(w ? o.B : o.A, h, n * esz, cudaMemcpyHostToDevice));
  }
  free(h);
  return o;
}
static void operands_free(operands *o) { LK_CHECK(cudaFree(o->A)); LK_CHECK(cudaFree(o->B)); LK_CHECK(cudaFree(o->C)); }

/* Time the n versions vs[] at one shape, in turns (lk_time_turns_ms): under the power limit a
 * GPU's clock falls after a second or so of full load, and versions timed one after another
 * would see different clocks (measured on an H100: a version timed fourth read 5-15 % low). */
static void time_versions(int n, const version *const *vs, const shape *s, const operands *o, double *ms)
{
  lk_timing opt = lk_timing_default();
  opt.repeats = 5;
  timed t[NVERSIONS];
  void (*fns[NVERSIONS])(void *);
  void *ctxs[NVERSIONS];
  for (int i = 0; i < n; ++i) {
    t[i] = (timed){ vs[i], *s, o->A, o->B, o->C };
    fns[i] = timed_call;
    ctxs[i] = &t[i];
  }
  lk_time_turns_ms(n, fns, ctxs, &opt, ms);
}
/* one version alone (--choice and --schedules change a global between their timings) */
static double time_version(const version *v, const shape *s, const operands *o)
{
  double ms;
  time_versions(1, &v, s, o, &ms);
  return ms;
}
static double tflops_of(const shape *s, double ms) { return 2.0 * s->M * s->N * s->K / (ms * 1e-3) / 1e12; }

/* Time cuBLAS and the selected versions (or those in `only`, ending with -1) of one precision at
 * one shape; print `bench:` lines, write CSV rows; tflops[id] receives each rate. */
static void bench_one(const shape *s, int prec, uint64_t seed, FILE *csv, const char *dev, const char *day,
                      const int *only, double *tflops_by_id)
{
  operands o = operands_new(s, prec, seed);
  const version *vs[NVERSIONS];
  double mss[NVERSIONS];
  int n = 0;
  for (int vi = 0; vi < NVERSIONS; ++vi) {
    const version *v = &versions[vi];
    int take = v->prec == prec && (only ? v->id == 0 : selected[v->id]);
    for (const int *q = only; q && *q >= 0; ++q) take |= v->prec == prec && v->id == *q;
    if (take) vs[n++] = v;
  }
  time_versions(n, vs, s, &o, mss);
  double ref_tflops = 0;
  for (int i = 0; i < n; ++i) {
    const version *v = vs[i];
    double ms = mss[i], tflops = tflops_of(s, ms);
    if (v->id == 0) ref_tflops = tflops;
    if (tflops_by_id) tflops_by_id[v->id] = tflops;
    double ratio = tflops / ref_tflops;
    printf("bench: %s %-26s %5dx%5dx%5d %9.3f ms %8.2f TFLOP/s %6.3f of cuBLAS\n", prec_name[prec], v->name, s->M, s->N,
           s->K, ms, tflops, ratio);
    fflush(stdout);
    if (csv) fprintf(csv, "\"%s\",%s,%s,%s,%d,%d,%d,%.3f,%.4f\n", dev, day, prec_name[prec], v->id ? v->name : "cublas",
                     s->M, s->N, s->K, tflops, ratio);
  }
  operands_free(&o);
}

/* --launch-cost: what one call costs the CPU, and what it costs the GPU when the CPU is out of the
 * way.  The timed windows call a version back to back: where its calls take the CPU longer than its
 * kernels take the GPU, the GPU waits between them and the window measures the CPU.  Here 64 calls
 * are queued behind a kernel that holds the GPU for 5 ms, longer than the CPU takes to queue them
 * (checked), and far fewer than the launch queue holds, so no call waits: the CPU's time for the
 * loop is what the calls cost it, and the events around them time the GPU running them back to
 * back.  Medians of 7 rounds.  The kernels of the best paths (steps 12, 15-30) are timed twice:
 * with programmatic dependent launch, as they run by default, and with plain launches (--pdl 0). */
// ANCHOR: launch_cost
__global__ void gemm_hold(unsigned long long ns)
{
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); while (t - t0 < ns);
}
// ANCHOR_END: launch_cost
static double host_now_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}
enum { COST_CALLS = 64, COST_ROUNDS = 7 };
static void launch_rounds(const version *v, const char *name, const shape *s, const operands *o, cudaEvent_t a,
                          cudaEvent_t b)
{
  timed t = { v, *s, o->A, o->B, o->C };
  double host[COST_ROUNDS], gpu[COST_ROUNDS];
  int late = 0;
  for (int c = 0; c < 3; ++c) timed_call(&t);
  // ANCHOR: launch_round
  for (int r = 0; r < COST_ROUNDS; ++r) {
    LK_CHECK(cudaDeviceSynchronize());
    gemm_hold<<<1, 1>>>(5000000ull);
    LK_CHECK(cudaEventRecord(a, 0));
    double t0 = host_now_us();
    for (int c = 0; c < COST_CALLS; ++c) timed_call(&t);
    double t1 = host_now_us();
    host[r] = (t1 - t0) / COST_CALLS;
    late += t1 - t0 > 4000.0;                            /* the GPU may have caught up: no measure */
    LK_CHECK(cudaEventRecord(b, 0));
    LK_CHECK(cudaEventSynchronize(b));
    float ms;
    LK_CHECK(cudaEventElapsedTime(&ms, a, b));
    LK_CHECK(cudaGetLastError());
    gpu[r] = ms * 1e3 / COST_CALLS;
  }
  // ANCHOR_END: launch_round
  qsort(host, COST_ROUNDS, sizeof host[0], lk__cmp_double);
  qsort(gpu, COST_ROUNDS, sizeof gpu[0], lk__cmp_double);
  if (late) {
    printf("launch cost: FAIL %s %s %dx%dx%d: queueing 64 calls took the CPU over 4 ms\n", prec_name[v->prec], name,
           s->M, s->N, s->K);
    return;
  }
  printf("launch: %s %-26s %5dx%5dx%5d  CPU %6.1f us a call, GPU queued %8.1f us a call%s\n", prec_name[v->prec], name,
         s->M, s->N, s->K, host[COST_ROUNDS / 2], gpu[COST_ROUNDS / 2],
         host[COST_ROUNDS / 2] > gpu[COST_ROUNDS / 2] ? "  <- back to back, the CPU sets the pace" : "");
  fflush(stdout);
}
static void launch_cost(const shape *s, int prec, uint64_t seed)
{
  operands o = operands_new(s, prec, seed);
  cudaEvent_t a, b;
  LK_CHECK(cudaEventCreate(&a));
  LK_CHECK(cudaEventCreate(&b));
  for (int vi = 0; vi < NVERSIONS; ++vi) {
    const version *v = &versions[vi];
    if (v->prec != prec || !selected[v->id]) continue;
    launch_rounds(v, v->name, s, &o, a, b);
    if (gh_pdl && launches_pdl(v->id)) {                 /* the same kernels with plain launches */
      char name[64];
      snprintf(name, sizeof name, "%s, no PDL", v->name);
      gh_pdl = 0;
      launch_rounds(v, name, s, &o, a, b);
      gh_pdl = 1;
    }
  }
  LK_CHECK(cudaEventDestroy(a));
  LK_CHECK(cudaEventDestroy(b));
  operands_free(&o);
}

/* --bench-shapes N: step 9 and the Hopper steps 12 to 17, 19 and 20 at the random shapes of the
 * checks. */
static void bench_random_shapes(int n, FILE *csv, const char *dev, const char *day)
{
  static const int ids[] = { 9, 12, 13, 14, 15, 16, 17, 19, 20, -1 };   /* step 9, then the Hopper steps */
  uint64_t rs = 0x7e57c0de;
  double worst[MAX_ID + 1];
  int worst_i[MAX_ID + 1];
  for (const int *id = ids + 1; *id >= 0; ++id) { worst[*id] = 1e30; worst_i[*id] = -1; }
  for (int i = 0; i < n; ++i) {
    shape s = random_shape(i, &rs);
    double t[MAX_ID + 1] = { 0 };
    bench_one(&s, BF16, 500 + i, csv, dev, day, ids, t);
    printf("shape: %5dx%5dx%5d ld (%d,%d,%d): steps 12-17, 19, 20 at", s.M, s.N, s.K, s.lda, s.ldb, s.ldc);
    for (const int *id = ids + 1; *id >= 0; ++id) printf(" %.2f", t[*id] / t[9]);
    printf(" of step 9\n");
    for (const int *id = ids + 1; *id >= 0; ++id)
      if (t[*id] / t[9] < worst[*id]) { worst[*id] = t[*id] / t[9]; worst_i[*id] = i; }
  }
  for (const int *id = ids + 1; *id >= 0; ++id)
    printf("shapes: %d random shapes; step %d against step 9: at worst %.3f (shape %d)\n", n, *id, worst[*id], worst_i[*id]);
}

/* --choice: operands whose leading dimension breaks TMA's rule, timed both ways (step 14 on padded
 * copies, and the predicated step 8 on the operands as they are), beside what hopper.cu picks */
static void bench_choice(void)
{
  static const int sz[][3] = { { 4095, 4095, 4095 }, { 4097, 4097, 4097 }, { 2047, 2047, 2047 }, { 1023, 1023, 1023 },
                               { 511, 511, 511 }, { 255, 255, 255 }, { 4095, 128, 4095 }, { 127, 4095, 4095 },
                               { 4095, 4095, 127 }, { 4095, 4095, 191 }, { 4095, 4095, 255 }, { 1, 5001, 5001 },
                               { 5001, 1, 5001 }, { 33, 33, 5001 }, { 1, 1, 1 }, { 15, 15, 15 }, { 63, 63, 63 },
                               { 127, 127, 127 } };
  const version *v14 = version_of(14);
  for (size_t i = 0; i < sizeof sz / sizeof sz[0]; ++i) {
    shape s = { sz[i][0], sz[i][1], sz[i][2], sz[i][0], sz[i][2], sz[i][0] };
    operands o = operands_new(&s, BF16, 900 + i);
    gh_force = 1;
    double pad = time_version(v14, &s, &o);
    gh_force = 2;
    double pred = time_version(v14, &s, &o);
    gh_force = 0;
    int route = gh_route(s.M, s.N, s.K, (const bf16 *)o.A, s.lda, (const bf16 *)o.B, s.ldb);
    int hopper = route == 1;
    const char *pick = hopper ? "padded" : route == 8 ? "predicated" : "step 9 (K < 128)";
    printf("choice: %5dx%5dx%5d padded %8.3f ms, predicated (step 8) %8.3f ms: %s is faster; the launcher takes %s%s\n",
           s.M, s.N, s.K, pad, pred, pad < pred ? "padded" : "predicated", pick,
           route == 9 ? "" : (pad < pred) == (hopper != 0) ? "" : "  <-- the rule is wrong here");
    operands_free(&o);
  }
}

/* --timeline DIR: when and where every unit of work ran (DIR/07_timeline.dat, chapter 7's timeline
 * figures).  Each run is a verified version launched once to warm up and once with gh_tl set; the
 * marks are checked before they are written: every k tile of every tile, once. */
typedef struct timeline_run { const char *label; int id, M, N, K; } timeline_run;
static const timeline_run TIMELINE_RUNS[] = {
  { "whole-tiles", 12, 1536, 1536, 16384 },     /* 72 tiles for 132 SMs */
  { "Stream-K", 15, 1536, 1536, 16384 },
  { "whole-tiles", 13, 5120, 5120, 4096 },      /* 800 tiles: 6 waves and 8 tiles */
  { "Stream-K", 15, 5120, 5120, 4096 },
  { "ping-pong", 16, 4096, 4096, 1024 },        /* 1024 (128,128) tiles, 16 k tiles each */
};

static int timeline(const char *dir)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/07_timeline.dat", dir);
  FILE *f = lk_data_open(dir, "07_timeline.dat",
                         "run version M N K sm cta wg m n k_begin k_end kind start_us mma_end_us fix_end_us end_us"
                         " (kind 0 whole, 1 owner, 2 partial; steps 12, 13, 15: consumer 0's rows)", 1);
  if (!f) return 1;
  const int cap = 1 << 16;
  gh_mark *marks, *h = (gh_mark *)LK_MALLOC(sizeof(gh_mark) * cap);
  int *count, bad = 0;
  LK_CHECK(cudaMalloc(&marks, sizeof(gh_mark) * cap));
  LK_CHECK(cudaMalloc(&count, sizeof(int)));
  for (size_t r = 0; r < sizeof TIMELINE_RUNS / sizeof TIMELINE_RUNS[0]; ++r) {
    const timeline_run *t = &TIMELINE_RUNS[r];
    shape s = { t->M, t->N, t->K, t->M, t->K, t->M };
    const version *v = version_of(t->id);
    operands o = operands_new(&s, BF16, 500 + r);
    run_version(v, &s, 1.0f, o.A, o.B, 0.0f, o.C);                   /* warm-up */
    int n = 0;
    LK_CHECK(cudaMemset(count, 0, sizeof(int)));
    gh_tl.marks = marks; gh_tl.count = count; gh_tl.capacity = cap;
    run_version(v, &s, 1.0f, o.A, o.B, 0.0f, o.C);
    gh_tl.marks = NULL; gh_tl.count = NULL; gh_tl.capacity = 0;
    LK_CHECK(cudaDeviceSynchronize());
    LK_CHECK(cudaMemcpy(&n, count, sizeof(int), cudaMemcpyDeviceToHost));
    if (n > cap) { printf("timeline: FAIL %s: %d marks, room for %d\n", v->name, n, cap); bad = 1; n = cap; }
    LK_CHECK(cudaMemcpy(h, marks, sizeof(gh_mark) * n, cudaMemcpyDeviceToHost));
    /* each k tile of each tile once: per consumer warpgroup in steps 12, 13 and 15, per tile in 16 */
    int bm = t->id == 16 ? 128 : GH_BM, bn = t->id == 16 ? 128 : GH_BN, wgs = t->id == 16 ? 1 : 2;
    int tm = (s.M + bm - 1) / bm, tn = (s.N + bn - 1) / bn, kt = (s.K + GH_BK - 1) / GH_BK;
    long long want = (long long)tm * tn * kt * wgs, got = 0;
    unsigned long long t0 = ~0ull, t1 = 0;
    for (int i = 0; i < n; ++i) {
      got += h[i].k_end - h[i].k_begin;
      if (h[i].start < t0) t0 = h[i].start;
      if (h[i].end > t1) t1 = h[i].end;
    }
    if (got != want) { printf("timeline: FAIL %s %dx%dx%d: marks cover %lld k tiles, want %lld\n", v->name, s.M, s.N, s.K, got, want); bad = 1; }
    for (int i = 0; i < n; ++i) {                        /* both consumers of a (128,256) tile: one row */
      if (t->id != 16 && h[i].wg != 0) continue;
      fprintf(f, "%s %s %d %d %d %d %d %d %d %d %d %d %d %.2f %.2f %.2f %.2f\n", t->label, v->name, s.M, s.N, s.K,
              h[i].sm, h[i].cta, h[i].wg, h[i].m, h[i].n, h[i].k_begin, h[i].k_end, h[i].kind, (h[i].start - t0) * 1e-3,
              (h[i].mma_end - t0) * 1e-3, (h[i].fix_end - t0) * 1e-3, (h[i].end - t0) * 1e-3);
    }
    printf("timeline: %-20s %5dx%5dx%5d  %5d units in %7.1f us: %s\n", v->name, s.M, s.N, s.K, n, (t1 - t0) * 1e-3,
           got == want ? "every k tile once" : "FAIL");
    operands_free(&o);
  }
  fclose(f);
  LK_CHECK(cudaFree(marks));
  LK_CHECK(cudaFree(count));
  free(h);
  if (!bad) printf("wrote %s\n", path);
  return bad;
}

/* --schedules: steps 13 and 14 under each raster and swizzle of the tile scheduler */
static void bench_schedules(void)
{
  static const int sizes[] = { 4096, 8192 };
  int keep_r = gh_raster_m, keep_s = gh_swizzle;
  for (int i = 0; i < 2; ++i) {
    shape s = { sizes[i], sizes[i], sizes[i], sizes[i], sizes[i], sizes[i] };
    operands o = operands_new(&s, BF16, 300 + i);
    for (int id = 13; id <= 14; ++id)
      for (int r = 1; r >= 0; --r)
        for (int sw = 1; sw <= 16; sw *= 2) {
          gh_raster_m = r; gh_swizzle = sw;
          if (i == 0) {                                  /* the order must not change the result */
            int keep[MAX_ID + 1];
            memcpy(keep, selected, sizeof keep);
            memset(selected, 0, sizeof selected);
            selected[id] = 1;
            shape odd = { 4999, 5121, 200, 4999, 200, 5001 };   /* 840 tiles: persistent */
            if (verify_shape(BF16, &odd, 4242 + sw)) { printf("schedule: FAIL under raster %d swizzle %d\n", r, sw); exit(1); }
            memcpy(selected, keep, sizeof keep);
          }
          double ms = time_version(version_of(id), &s, &o);
          printf("schedule: %-22s %5d^3 raster %s swizzle %2d: %8.2f TFLOP/s\n", version_of(id)->name, s.M, r ? "m" : "n",
                 sw, tflops_of(&s, ms));
          fflush(stdout);
        }
    operands_free(&o);
  }
  gh_raster_m = keep_r; gh_swizzle = keep_s;
  printf("schedule: step 14 runs %d clusters of 2 at once (cudaOccupancyMaxActiveClusters), %d SMs\n",
         gh_clusters_resident, gh_sm_count());
}

/* ------------------------------------------------------------------------------------------------
 * main
 * ---------------------------------------------------------------------------------------------- */

#define STR_(x) #x
#define STR(x) STR_(x)   /* MAX_ID as text, so the usage cannot fall behind the ladder */
#define MAX_SIDE 1048576 /* 2^20: a side of a size in a LIST */
#define MAX_SIZES 64     /* sizes in a LIST */
#define SIZES_HINT "sizes N or MxNxK, each side 1 to " STR(MAX_SIDE) ", at most " STR(MAX_SIZES) " of them"
static const char *usage =
  "usage: 07_gemm [--check-only] [--quick] [--sizes LIST] [--versions LIST] [--shapes N]\n"
  "               [--csv FILE] [--data DIR] [--self-test] [--schedules] [--choice] [--bench-shapes N]\n"
  "               [--timeline DIR] [--route LIST [--sms P]] [--launch-cost] [--pdl 0|1]\n"
  "               [--cublas-choice LIST]\n"
  "  LIST of sizes: N (N x N x N) or MxNxK, comma-separated, each side 1 to " STR(MAX_SIDE) ", at most " STR(MAX_SIZES) " sizes;\n"
  "  LIST of versions: ids 0-" STR(MAX_ID) "\n";

static int parse_sizes(const char *s, shape *out, int cap);

/* the (bm,bn) tile of the best path's step `step` for an (M,N,K) problem on `sms` SMs */
static void route_tile(int step, int M, int N, int K, int sms, int *bm, int *bn)
{
  *bm = GH_BM, *bn = GH_BN;                            /* (128,256): steps 12, 14, 15, 17 and 27 */
  if (step == 20) *bm = 64, *bn = 128;
  else if (step == 21 || step == 22 || step == 24) *bm = *bn = 192;
  else if (step == 26) *bm = 192, *bn = gh_narrow_bn(M, N, K, sms);
  else if (step == 16 || step == 19) *bm = *bn = 128;
  else if (step == 29) *bm = 128, *bn = gh_one_wave_bn(M, N, sms);
  else if (step == 30) *bm = 256, *bn = gh_tall_bn(N);
}
/* what the best path runs, in words: step (its number), and how (B's leading dimension: ldb) */
static void route_name(int step, int M, int N, int K, int ldb, int sms, char *buf, size_t cap)
{
  int parts = gh_split_parts(M, N, K, sms);
  if (step == 19) {
    int pairs = gh_split_pairs(M, N, ldb);
    snprintf(buf, cap, "19, split-K, each (128,128) tile in %d parts, %s fix-up%s", parts,
             gh_split_shared(parts) ? "a shared" : "the owner's",
             pairs == 1 ? ", in pairs that share A" : pairs == 2 ? ", in pairs that share B" : "");
    return;
  }
  snprintf(buf, cap, "%s", step == 15 ? "15, Stream-K" : step == 16 ? "16, ping-pong, a (128,128) tile a CTA"
                           : step == 14 ? "14, clusters of 2 sharing B, C by TMA stores"
                           : step == 27 ? "27, Stream-K over pairs of tiles, clusters of 2 sharing B"
                           : step == 23 ? "23, clusters of 2 sharing A, C by TMA stores"
                           : step == 21 ? "21, persistent, whole (192,192) tiles"
                           : step == 24 ? "24, (192,192) tiles in clusters of 2 sharing B"
                           : step == 25 ? "25, narrow tiles: (64,64), C's narrow side on the MMA's n"
                           : step == 22 ? "22, Stream-K over (192,192) tiles"
                           : step == 20 ? "20, small tiles, a (64,128) tile a CTA"
                           : step == 12 ? "12, whole tiles, one launch"
                           : step == 9 ? "9, K < 128, an unaligned operand (mma.sync; C through shared memory)"
                           : step == 8 ? "8, predicated (K < 128, a tiny problem, an unaligned operand)"
                           : step == 28 && gemm_28_kernel(M, N, K) == 1 ? "28, thin, the rows kernel: a warp a column of C"
                           : step == 28 && gemm_28_kernel(M, N, K) == 2 ? "28, thin, the cols kernel: a lane 8 rows of C"
                           : step == 28 ? "28, thin, the outer kernel: a warp 256 rows of a column of C"
                           : "17, persistent, whole tiles");
  if (step == 26 || step == 29 || step == 30) {                       // steps 26, 29 and 30: their tiles and waves
    int bm, bn;
    route_tile(step, M, N, K, sms, &bm, &bn);
    long long waves = ((long long)((M + bm - 1) / bm) * ((N + bn - 1) / bn) + sms - 1) / sms;
    char w[32] = "one wave";
    if (waves > 1) snprintf(w, sizeof w, "%lld waves", waves);
    snprintf(buf, cap, "%d, %s of (%d,%d) tiles%s%s", step, w, bm, bn, step == 26 ? "" : ", a tile a CTA",
             step == 29 && gh_one_wave_pairs(M, N, K, sms) ? ", in pairs that share A" : "");
  }
  int kpart, parts28 = step == 28 ? gemm_28_parts(M, N, K, sms, &kpart) : 1;
  if (parts28 > 1) {                                                   // step 28's k loops in parts
    size_t n = strlen(buf);
    snprintf(buf + n, cap - n, ", each k loop in %d parts of %d k", parts28, kpart);
  }
  int ctas, exact = gh_route_exact_parts(step, M, N, K, sms, &ctas);   // Stream-K that splits every tile
  size_t n = strlen(buf);                                              // (step 27: pair) exactly
  if (exact) snprintf(buf + n, cap - n, ", every %s in %d parts on %d %s", step == 27 ? "pair" : "tile", exact, ctas,
                      step == 27 ? "clusters" : "CTAs");
}

/* --route: the best path's choice for each size, and the four estimates behind it (hopper.cu);
 * then the same for fp32, step 18's launcher (18_fp32_stream_k.cu) */
static int print_routes(lk_args *args, const char *list)
{
  shape sz[MAX_SIZES];
  int n = parse_sizes(list, sz, MAX_SIZES);
  if (n < 1) lk_usage_error(args, "bad --route: %s (" SIZES_HINT ")", list);
  int sms = 132, devices = 0;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0) sms = gh_sm_count();
  else cudaGetLastError();                             /* no device: the error is not sticky; clear it */
  sms = (int)lk_arg_int(args, "--sms", sms, 1, 100000);
  for (int i = 0; i < n; ++i) {
    double stream_k, whole, tile_192, stream_k_192;
    gh_estimates(sz[i].M, sz[i].N, sz[i].K, sms, &stream_k, &whole, &tile_192, &stream_k_192);
    int bn;
    double narrow = gh_narrow_estimate(sz[i].M, sz[i].N, sz[i].K, sms, &bn);
    int step = gh_launch_route(sz[i].M, sz[i].N, sz[i].K, sz[i].lda, sz[i].ldb, sms);
    char what[160];
    route_name(step, sz[i].M, sz[i].N, sz[i].K, sz[i].ldb, sms, what, sizeof what);
    if (gh_pad_pays(sz[i].M, sz[i].N, sz[i].K, sz[i].lda, sz[i].ldb, sms))   // the copies first (pad.cu)
      printf("route padded: %5dx%5dx%5d: A and B copied first, to leading dimensions %d and %d\n", sz[i].M,
             sz[i].N, sz[i].K, (sz[i].M + 63) / 64 * 64, (sz[i].K + 63) / 64 * 64);
    double pairs_stream_k, pairs_whole;
    gh_cluster_estimates(sz[i].M, sz[i].N, sz[i].K, sms, &pairs_stream_k, &pairs_whole);
    printf("route: %5dx%5dx%5d on %d SMs: Stream-K %8.1f, whole tiles %8.1f, (192,192) tiles %8.1f, Stream-K (192,192)"
           " %8.1f, (192,%d) tiles %8.1f, pairs: Stream-K %8.1f, whole %8.1f -> step %s\n", sz[i].M, sz[i].N, sz[i].K,
           sms, stream_k, whole, tile_192, stream_k_192, bn, narrow, pairs_stream_k, pairs_whole, what);
    double split;                                                          /* step 18's launcher, fp32 */
    gemm_18_estimates(sz[i].M, sz[i].N, sz[i].K, sms, &stream_k, &whole, &split);
    int parts, choice = gemm_18_choice(sz[i].M, sz[i].N, sz[i].K, sms, &parts);
    char sp[16] = "       -", fp[64] = "18, Stream-K";
    if (parts > 1) snprintf(sp, sizeof sp, "%8.1f", split);
    if (choice == GEMM18_WHOLE) snprintf(fp, sizeof fp, "31, whole tiles");
    else if (choice == GEMM18_SPLIT) snprintf(fp, sizeof fp, "18, split-K, each tile in %d parts", parts);
    printf("route fp32:             Stream-K %8.1f, whole tiles %8.1f, split-K %s -> step %s\n", stream_k, whole, sp, fp);
  }
  return 0;
}

/* --cublas-choice LIST: what cuBLAS runs for the benchmark's bf16 GEMM (bf16 A and B, fp32 C, all
 * column-major with leading dimensions M, K, M) at each size -- the first choice of cuBLASLt's
 * heuristic for this GPU, given 32 MiB of workspace -- beside the best path's route.  cublasGemmEx
 * follows that choice: at the twelve sizes of output-cublas.txt on an H200 and at nine of them on
 * an H100, the kernel it ran (named by Nsight Compute) had this tile and cluster.  Tiles and
 * clusters are the values of cublasLtMatmulTile_t and cublasLtClusterShape_t in cublasLt.h, which
 * never change; a value not in the tables below is printed as its number.  "Per SM" counts work
 * units (tiles, times the parts of a split) over the SMs: the waves they make, one CTA an SM. */
static const int LT_TILES[][3] = {                     /* value, rows (m), columns (n) */
  { 15, 64, 64 }, { 17, 64, 128 }, { 18, 128, 64 }, { 19, 64, 256 }, { 20, 128, 128 }, { 21, 256, 64 },
  { 23, 128, 256 }, { 24, 256, 128 }, { 26, 64, 96 }, { 27, 96, 64 }, { 28, 96, 128 }, { 29, 128, 160 },
  { 30, 160, 128 }, { 31, 192, 128 }, { 32, 128, 192 }, { 33, 128, 96 }, { 116, 64, 192 }, { 176, 128, 320 },
  { 193, 160, 64 }, { 194, 160, 192 }, { 195, 160, 256 }, { 208, 192, 64 }, { 209, 192, 192 }, { 210, 192, 256 },
  { 221, 224, 128 }, { 232, 256, 192 }, { 247, 320, 64 }, { 248, 320, 128 }, { 264, 384, 128 }, { 315, 64, 48 },
  { 326, 64, 160 }, { 414, 128, 224 }, { 458, 192, 96 }, { 465, 192, 160 }, { 495, 256, 96 }, { 502, 256, 160 },
  { 513, 256, 256 }, { 524, 320, 96 }, { 531, 320, 160 }, { 535, 320, 192 },
};
static const int LT_CLUSTERS[][3] = {                  /* value, CTAs along m, along n */
  { 2, 1, 1 }, { 3, 2, 1 }, { 4, 4, 1 }, { 5, 1, 2 }, { 6, 2, 2 }, { 7, 4, 2 }, { 8, 1, 4 }, { 9, 2, 4 },
  { 10, 4, 4 }, { 11, 8, 1 }, { 12, 1, 8 }, { 13, 8, 2 }, { 14, 2, 8 }, { 15, 16, 1 }, { 16, 1, 16 },
  { 17, 3, 1 }, { 18, 5, 1 }, { 19, 6, 1 }, { 20, 7, 1 }, { 21, 9, 1 }, { 22, 10, 1 }, { 23, 11, 1 },
  { 24, 12, 1 }, { 25, 13, 1 }, { 26, 14, 1 }, { 27, 15, 1 }, { 28, 3, 2 }, { 29, 5, 2 }, { 30, 6, 2 },
  { 31, 7, 2 }, { 32, 1, 3 }, { 33, 2, 3 }, { 34, 3, 3 }, { 35, 4, 3 }, { 36, 5, 3 }, { 37, 3, 4 },
  { 38, 1, 5 }, { 39, 2, 5 }, { 40, 3, 5 }, { 41, 1, 6 }, { 42, 2, 6 }, { 43, 1, 7 }, { 44, 2, 7 },
  { 45, 1, 9 }, { 46, 1, 10 }, { 47, 1, 11 }, { 48, 1, 12 }, { 49, 1, 13 }, { 50, 1, 14 }, { 51, 1, 15 },
};
/* "(bm,bn) tiles, T[ x parts of k], W per SM": an (M,N) output cut in (bm,bn) tiles, each k loop in
 * `parts`, on `sms` SMs */
static void tiles_text(char *buf, size_t cap, int M, int N, int bm, int bn, int parts, int sms)
{
  long long T = (((long long)M + bm - 1) / bm) * (((long long)N + bn - 1) / bn);
  char split[32] = "";
  if (parts > 1) snprintf(split, sizeof split, " x %d parts of k", parts);
  snprintf(buf, cap, "(%d,%d) tiles, %lld%s, %.2f per SM", bm, bn, T, split, (double)T * parts / sms);
}
/* cuBLASLt's first choice for (M, N, K) in words; 0 if it has none */
static int lt_first_choice(cublasLtHandle_t lt, int M, int N, int K, int sms, char *buf, size_t cap)
{
  size_t ws = (size_t)32 << 20, w;
  cublasLtMatmulDesc_t op;
  cublasLtMatrixLayout_t la, lb, lc;
  cublasLtMatmulPreference_t pref;
  CUBLAS_CHECK(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&la, CUDA_R_16BF, M, K, M));
  CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&lb, CUDA_R_16BF, K, N, K));
  CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&lc, CUDA_R_32F, M, N, M));
  CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&pref));
  CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws));
  cublasLtMatmulHeuristicResult_t r;
  int got = 0;
  cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, lc, pref, 1, &r, &got);
  if (st != CUBLAS_STATUS_SUCCESS && st != CUBLAS_STATUS_NOT_SUPPORTED) CUBLAS_CHECK(st);
  int ok = st == CUBLAS_STATUS_SUCCESS && got > 0 && r.state == CUBLAS_STATUS_SUCCESS;
  uint32_t tile = 0;
  int32_t parts = 1;
  uint16_t cluster = 0;
  if (ok) {
    CUBLAS_CHECK(cublasLtMatmulAlgoConfigGetAttribute(&r.algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof tile, &w));
    CUBLAS_CHECK(cublasLtMatmulAlgoConfigGetAttribute(&r.algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &parts, sizeof parts, &w));
    CUBLAS_CHECK(cublasLtMatmulAlgoConfigGetAttribute(&r.algo, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, &cluster,
                                                      sizeof cluster, &w));
    if (parts < 1) parts = 1;
    char t_s[96], c_s[64];
    snprintf(t_s, sizeof t_s, tile ? "tile value %u (not in this program's table)" : "no tile shape (value %u)", (unsigned)tile);
    for (size_t t = 0; t < sizeof LT_TILES / sizeof LT_TILES[0]; ++t)
      if (LT_TILES[t][0] == (int)tile) tiles_text(t_s, sizeof t_s, M, N, LT_TILES[t][1], LT_TILES[t][2], parts, sms);
    snprintf(c_s, sizeof c_s, "cluster value %u (not in this program's table)", (unsigned)cluster);
    if (cluster == 0) snprintf(c_s, sizeof c_s, "cluster chosen at run time");
    for (size_t c = 0; c < sizeof LT_CLUSTERS / sizeof LT_CLUSTERS[0]; ++c)
      if (LT_CLUSTERS[c][0] == (int)cluster)
        snprintf(c_s, sizeof c_s, LT_CLUSTERS[c][1] * LT_CLUSTERS[c][2] == 1 ? "no clusters" : "clusters of %d (m) x %d (n)",
                 LT_CLUSTERS[c][1], LT_CLUSTERS[c][2]);
    snprintf(buf, cap, "%s, %s", t_s, c_s);
  }
  cublasLtMatmulPreferenceDestroy(pref);
  cublasLtMatrixLayoutDestroy(la);
  cublasLtMatrixLayoutDestroy(lb);
  cublasLtMatrixLayoutDestroy(lc);
  cublasLtMatmulDescDestroy(op);
  return ok;
}
static int cublas_choice(lk_args *args, const char *list)
{
  shape sz[MAX_SIZES];
  int n = parse_sizes(list, sz, MAX_SIZES);
  if (n < 1) lk_usage_error(args, "bad --cublas-choice: %s (" SIZES_HINT ")", list);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();
    fprintf(stderr, "07_gemm --cublas-choice needs a CUDA device: it asks cuBLASLt's heuristic about one\n");
    return 1;
  }
  char dev[512];
  lk_device_stamp(dev, sizeof dev);
  printf("device: %s\n", dev);
  int sms = gh_sm_count();
  cublasLtHandle_t lt;
  CUBLAS_CHECK(cublasLtCreate(&lt));
  for (int i = 0; i < n; ++i) {
    int M = sz[i].M, N = sz[i].N, K = sz[i].K;
    char theirs[192], ours[256], route[128];
    if (!lt_first_choice(lt, M, N, K, sms, theirs, sizeof theirs)) snprintf(theirs, sizeof theirs, "the heuristic offers nothing");
    int step = gh_launch_route(M, N, K, sz[i].lda, sz[i].ldb, sms);
    int bm, bn;
    route_tile(step, M, N, K, sms, &bm, &bn);
    char tiles[96] = "";
    int ctas, exact = gh_route_exact_parts(step, M, N, K, sms, &ctas);   /* Stream-K's exact split, or 0 */
    int parts = step == 19 ? gh_split_parts(M, N, K, sms) : exact ? exact : 1;
    if (step != 9 && step != 8)                        /* step 9's or 8's tiles: not the best path's */
      tiles_text(tiles, sizeof tiles, M, N, bm, bn, parts, sms);
    route_name(step, M, N, K, sz[i].ldb, sms, route, sizeof route);
    snprintf(ours, sizeof ours, "step %s%s%s", route, *tiles ? ": " : "", tiles);
    printf("cublas: %5dx%5dx%5d: %s\ncublas:             ours, %s\n", M, N, K, theirs, ours);   /* both lines depend on the GPU */
  }
  cublasLtDestroy(lt);
  return 0;
}

/* a list of sizes, N (N x N x N) or MxNxK, comma-separated, each side from 1 to MAX_SIDE;
 * the count, or -1 for a malformed list, a side out of range or more than cap sizes */
static int parse_side(const char **s, int *v)
{
  char *end;
  if (**s < '0' || **s > '9') return 0;       /* digits only: no sign, no space */
  long x = strtol(*s, &end, 10);
  if (x < 1 || x > MAX_SIDE) return 0;          /* out of range, including a strtol overflow */
  *v = (int)x;
  *s = end;
  return 1;
}
static int parse_sizes(const char *s, shape *out, int cap)
{
  int n = 0;
  while (*s) {
    int M, N, K;
    if (!parse_side(&s, &M)) return -1;
    if (*s == 'x') {
      ++s;
      if (!parse_side(&s, &N) || *s++ != 'x' || !parse_side(&s, &K)) return -1;
    } else N = K = M;
    if (n == cap) return -1;
    shape sh = { M, N, K, M, K, M };
    out[n++] = sh;
    if (*s == ',' && s[1]) ++s; else if (*s) return -1;
  }
  return n;
}

int main(int argc, char **argv)
{
  lk_args args = { argc, argv, usage };
  const char *known[] = { "--check-only", "--quick", "--sizes=", "--versions=", "--shapes=", "--csv=", "--data=", "--self-test",
                          "--schedules", "--choice", "--bench-shapes=", "--timeline=", "--route=", "--sms=", "--launch-cost", "--cublas-choice=",
                          "--pdl=", NULL };
  lk_args_check(&args, known);
  int quick = lk_arg_flag(&args, "--quick"), check_only = lk_arg_flag(&args, "--check-only");
  shape sizes[MAX_SIZES];
  const char *tl_dir = lk_arg_dir(&args, "--timeline");   /* verifies the timeline's shapes, times nothing */
  const char *data_dir = lk_arg_dir(&args, "--data");      /* checked now, not after the timing */
  const char *tl_sizes = "1536x1536x16384,5120x5120x4096,4096x4096x1024";
  int nsizes = parse_sizes(lk_arg_str(&args, "--sizes", tl_dir ? tl_sizes : quick ? "1024,2048,1000,4097" : "1024,2048,4096,8192,4095,4097,1000"), sizes, MAX_SIZES);
  if (nsizes < 1) lk_usage_error(&args, "bad --sizes: %s (" SIZES_HINT ")", lk_arg_str(&args, "--sizes", ""));
  const char *vl = lk_arg_str(&args, "--versions", NULL);
  if (!vl) for (int i = 0; i <= MAX_ID; ++i) selected[i] = 1;
  else {
    for (const char *p = vl; *p;) {
      char *end;
      long id = strtol(p, &end, 10);
      if (end == p || id < 0 || id > MAX_ID || (id >= 1 && !version_of(id))) lk_usage_error(&args, "bad --versions: %s", vl);
      selected[id] = 1;
      p = *end == ',' ? end + 1 : end;
      if (*end && *end != ',') lk_usage_error(&args, "bad --versions: %s", vl);
    }
  }
  selected[0] = 1;                               /* the reference is always there */
  int nshapes = (int)lk_arg_int(&args, "--shapes", quick ? 8 : 30, 0, 1000);
  int cost = lk_arg_flag(&args, "--launch-cost");
  if (cost && (lk_arg_str(&args, "--csv", NULL) || data_dir))
    lk_usage_error(&args, "%s", "--launch-cost times no windows: it writes no CSV (--csv, --data)");
  int bench_shapes = (int)lk_arg_int(&args, "--bench-shapes", 0, 0, 1000);
  gh_pdl = (int)lk_arg_int(&args, "--pdl", 1, 0, 1);

  const char *route = lk_arg_str(&args, "--route", NULL);
  if (route) return print_routes(&args, route);
  const char *choice = lk_arg_str(&args, "--cublas-choice", NULL);
  if (choice) return cublas_choice(&args, choice);
  host_algebra();
  printf("\n");
  int st = self_test();
  if (lk_arg_flag(&args, "--self-test")) return st;
  if (st) return 1;
  printf("\n");
  if (!lk_device_present()) return 0;

  char dev[512], day[32];
  lk_device_stamp(dev, sizeof dev);
  lk_today(day, sizeof day);
  printf("device: %s\n", dev);
  CUBLAS_CHECK(cublasCreate(&cublas_f32));
  CUBLAS_CHECK(cublasSetMathMode(cublas_f32, CUBLAS_PEDANTIC_MATH));   /* true fp32, no TF32 */
  CUBLAS_CHECK(cublasCreate(&cublas_bf16));

  if (swizzle_check()) return 1;

  /* ---- verification: small fixed shapes, the benchmark sizes, random shapes */
  shape checks[1200];
  int nchecks = 0;
  shape fixed[] = { { 1, 1, 1, 1, 1, 1 }, { 67, 45, 33, 67, 33, 67 }, { 128, 128, 128, 128, 128, 128 },
                    { 1, 300, 257, 3, 260, 1 }, { 300, 1, 257, 301, 257, 302 }, { 255, 129, 1, 256, 1, 260 } };
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; ++i) checks[nchecks++] = fixed[i];
  for (int i = 0; i < nsizes; ++i) checks[nchecks++] = sizes[i];
  uint64_t rs = 0x7e57c0de;
  for (int i = 0; i < nshapes; ++i) checks[nchecks++] = random_shape(i, &rs);
  int failed = 0, done = 0;
  for (int prec = F32; prec <= BF16; ++prec) {
    if (!any_selected(prec)) continue;
    for (int i = 0; i < nchecks; ++i) {
      failed += verify_shape(prec, &checks[i], 1000 + i * 7 + prec);
      ++done;
      if (isatty(2)) fprintf(stderr, "\rverified %s %d/%d shapes", prec_name[prec], i + 1, nchecks);
    }
    if (isatty(2)) fprintf(stderr, "\n");
  }
  printf("verification: %d shapes (%d fixed, %d benchmark sizes, %d random) per precision: %s\n", nchecks,
         (int)(sizeof fixed / sizeof fixed[0]), nsizes, nshapes, failed ? "FAIL" : "PASS");
  if (failed) { printf("%d checks failed: nothing is timed\n", failed); return 1; }
  if (check_only) return 0;
  if (tl_dir) return timeline(tl_dir);

  /* ---- timing */
  const char *csv_path = lk_arg_str(&args, "--csv", NULL);
  char data_path[1024];
  if (data_dir) { snprintf(data_path, sizeof data_path, "%s/gemm.csv", data_dir); csv_path = data_path; }
  FILE *csv = NULL;
  if (csv_path) {
    csv = fopen(csv_path, "w");
    if (!csv) { perror(csv_path); return 1; }
    fprintf(csv, "device,date,precision,version,M,N,K,tflops,ratio\n");
  }
  for (int i = 0; i < nsizes; ++i)
    for (int prec = F32; prec <= BF16; ++prec)
      if (any_selected(prec)) {
        if (cost) launch_cost(&sizes[i], prec, 77 + 2 * i);
        else bench_one(&sizes[i], prec, 77 + 2 * i, csv, dev, day, NULL, NULL);
      }
  if (bench_shapes > 0) bench_random_shapes(bench_shapes, csv, dev, day);
  if (lk_arg_flag(&args, "--choice")) bench_choice();
  if (lk_arg_flag(&args, "--schedules")) bench_schedules();
  if (data_dir && timeline(data_dir)) return 1;
  if (csv) { fclose(csv); printf("wrote %s\n", csv_path); }
  cublasDestroy(cublas_f32);
  cublasDestroy(cublas_bf16);
  return 0;
}
