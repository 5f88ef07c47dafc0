/* labkit.h -- what every lab program needs around its kernels (header-only, CUDA C style).
 *
 *   LK_CHECK(cudaMalloc(&p, n));        a CUDA call, checked: file, line and message on failure
 *   p = LK_MALLOC(n);                   host memory, checked the same way (a size too large stops)
 *   kernel<<<g, b>>>(...); LK_LAUNCH(); the launch checked (and, with LK_SYNC_LAUNCHES, waited on)
 *   if (!lk_device_present()) ...       no device: the lab says so and runs its host part only
 *   lk_device_stamp(buf, n)             "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 50 MiB L2)"
 *   lk_time_ms(fn, ctx, &opt)           median time of fn over repeats, each window >= 50 ms
 *   lk_time_turns_ms(n, fns, ctxs, &opt, ms)   the same for n functions timed in turns
 *   lk_fill_random(h, n, seed)          seeded random floats in [-1, 1), never all zeros
 *   lk_compare_int / lk_compare_float   every element, first mismatch printed
 *   lk_args_*                           `--name value` arguments with usage errors
 *   lk_arg_dir(&a, "--data")            a directory argument, checked up front: one that cannot be
 *                                       written to is a usage error before any work is done
 *   lk_data_open(dir, name, what)       a data file for a figure, stamped with device and date
 *   P("(_2,_2):(_1,_2)")                a CuTe literal, parsed by the library (a bad one stops the lab)
 *
 * Kernels stay plain CUDA C: the kit only wraps the host side.
 */
#ifndef LT_LABKIT_H
#define LT_LABKIT_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include "layout.h"

/* ---- errors ---------------------------------------------------------------------------------- */

static inline void lk_die(const char *what, const char *file, int line)
{
  fprintf(stderr, "%s:%d: %s\n", file, line, what);
  exit(1);
}

/* malloc that stops the lab, naming the size, where the host has no memory for it */
static inline void *lk_malloc(size_t bytes, const char *file, int line)
{
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    char m[128];
    snprintf(m, sizeof m, "out of host memory: %.1f MiB asked for", (double)bytes / (1 << 20));
    lk_die(m, file, line);
  }
  return p;
}
#define LK_MALLOC(bytes) lk_malloc((bytes), __FILE__, __LINE__)

#define LK_CHECK(call)                                                                         \
  do {                                                                                         \
    cudaError_t lk_e_ = (call);                                                                \
    if (lk_e_ != cudaSuccess) {                                                                \
      char lk_m_[512];                                                                         \
      snprintf(lk_m_, sizeof lk_m_, "CUDA error %s (%s) in %s", cudaGetErrorName(lk_e_),       \
               cudaGetErrorString(lk_e_), #call);                                              \
      lk_die(lk_m_, __FILE__, __LINE__);                                                       \
    }                                                                                          \
  } while (0)

/* After a launch: a bad configuration shows in cudaGetLastError; a fault shows at the next
 * synchronization (define LK_SYNC_LAUNCHES to wait after every launch while debugging). */
#ifdef LK_SYNC_LAUNCHES
#define LK_LAUNCH() do { LK_CHECK(cudaGetLastError()); LK_CHECK(cudaDeviceSynchronize()); } while (0)
#else
#define LK_LAUNCH() LK_CHECK(cudaGetLastError())
#endif

/* ---- CuTe literals -------------------------------------------------------------------------- */

/* P("(4,6):(6,_1)"): a shape, stride, coordinate or layout written in CuTe's notation, as the
 * library's lt_parse reads it.  A lab writes its literals itself, so a malformed one is a bug in
 * the lab: it stops the program with the library's message and the column, rather than carrying
 * an error value into the algebra.  (The one-letter name keeps the book's listings short.) */
static inline lt_val P(const char *text)
{
  int col = 0;
  lt_val v = lt_parse(text, &col);
  if (col) {
    fprintf(stderr, "bad CuTe literal \"%s\": %s, at column %d\n", text, lt_error(&v), col);
    exit(1);
  }
  return v;
}

/* ---- the device ------------------------------------------------------------------------------ */

/* 1 if a CUDA device can be used; 0 (with the lab's standard note) if not. */
static inline int lk_device_present(void)
{
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0) {
    (void)cudaGetLastError();
    printf("no CUDA device: skipping the device part\n");
    return 0;
  }
  return 1;
}

static inline void lk_device_stamp(char *buf, size_t cap)
{
  cudaDeviceProp p;
  int dev = 0;
  LK_CHECK(cudaGetDevice(&dev));
  LK_CHECK(cudaGetDeviceProperties(&p, dev));
  snprintf(buf, cap, "%.120s (sm_%d%d, %d SMs, %d MiB L2)", p.name, p.major, p.minor,
           p.multiProcessorCount, p.l2CacheSize >> 20);
}

static inline void lk_today(char *buf, size_t cap)
{
  time_t t = time(NULL);
  struct tm tmv;
  gmtime_r(&t, &tmv);
  strftime(buf, cap, "%Y-%m-%d", &tmv);
}

/* ---- timing ---------------------------------------------------------------------------------- */

typedef struct lk_timing {
  int    warmup;        /* untimed calls first */
  int    repeats;       /* timed windows; the median is reported */
  double min_window_ms; /* each window repeats fn until it lasts at least this long */
  int    flush_l2;      /* overwrite a buffer larger than L2 before each window */
} lk_timing;

static inline lk_timing lk_timing_default(void) { lk_timing t = { 3, 9, 50.0, 1 }; return t; }

static inline int lk__cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static inline void lk_flush_l2(void)
{
  static void *buf = NULL;
  static size_t bytes = 0;
  if (!buf) {
    cudaDeviceProp p;
    int dev = 0;
    LK_CHECK(cudaGetDevice(&dev));
    LK_CHECK(cudaGetDeviceProperties(&p, dev));
    bytes = (size_t)p.l2CacheSize * 4;
    LK_CHECK(cudaMalloc(&buf, bytes));
  }
  LK_CHECK(cudaMemsetAsync(buf, 0x5a, bytes, 0));
}

/* The order in which n functions are timed in turns: a cyclic sequence of windows in which every
 * ordered pair of different functions (i, k) stands side by side exactly once, counting the pair
 * that closes the cycle (last, first) -- an Eulerian circuit of the complete directed graph on n
 * vertices, found by Hierholzer's walk.  The walk leaves each vertex v for v+1, v+2, ... in turn,
 * which spreads each function's windows over the whole cycle (n = 4: 1 2 3 0 2 0 3 1 3 2 1 0).
 * Each function comes n - 1 times in the n (n - 1) windows (one window for n = 1).  seq holds at
 * least max(1, n (n - 1)) entries; returns the length, or 0 for n outside 1..64.  Repeating the
 * cycle keeps the balance across its ends, which separate rounds do not: their boundaries add
 * pairs of their own. */
static inline int lk__turn_sequence(int n, int *seq)
{
  if (n < 1 || n > 64) return 0;
  if (n == 1) { seq[0] = 0; return 1; }
  int len = n * (n - 1), used[64], top = 0, out = len;
  int *stack = (int *)malloc(sizeof(int) * (size_t)(len + 1));
  for (int v = 0; v < n; ++v) used[v] = 0;             /* pairs (v, .) walked so far */
  stack[top++] = 0;
  while (top > 0) {                                    /* the circuit comes out backwards */
    int v = stack[top - 1];
    if (used[v] < n - 1) stack[top++] = (v + 1 + used[v]++) % n;   /* v+1, v+2, ...: spreads each */
    else {                                                          /* function over the cycle */
      top--;
      if (out > 0) seq[--out] = v;                     /* the circuit's last vertex repeats its first */
    }
  }
  free(stack);
  return len;
}

/* Median milliseconds of one call of each of n functions fn[i](ctx[i]), which launch work on the
 * default stream.  Each window repeats a function enough times to last min_window_ms (short
 * windows flatter whichever version has less launch overhead), and ms_out[i] receives the
 * per-call time of fn[i]'s median window.  The functions are timed in turns, in the cyclic order of
 * lk__turn_sequence, as many whole cycles as it takes to give each at least opt->repeats windows,
 * after one untimed window of the cycle's last function (for n > 1), so that the first timed
 * window has the same predecessor as in every later cycle.  On a GPU whose clock falls under
 * sustained load (the power limit), timing one function after another gives the later ones the
 * slower clock; and a function that follows a lighter one (a kernel on fewer SMs, which lets the
 * clock recover) more often than the others gains a few percent.  In this order every function
 * follows every other one equally often. */
static inline void lk_time_turns_ms(int n, void (*const *fn)(void *), void *const *ctx, const lk_timing *opt,
                                    double *ms_out)
{
  cudaEvent_t a, b;
  LK_CHECK(cudaEventCreate(&a));
  LK_CHECK(cudaEventCreate(&b));
  int *calls = (int *)malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < opt->warmup; ++k) fn[i](ctx[i]);
    float ms = 0;
    LK_CHECK(cudaEventRecord(a, 0));
    fn[i](ctx[i]);
    LK_CHECK(cudaEventRecord(b, 0));
    LK_CHECK(cudaEventSynchronize(b));
    LK_CHECK(cudaEventElapsedTime(&ms, a, b));
    calls[i] = ms > 0 ? (int)(opt->min_window_ms / ms) + 1 : 1000;
    if (calls[i] < 1) calls[i] = 1;
    if (calls[i] > 100000) calls[i] = 100000;
  }
  int *seq = (int *)malloc(sizeof(int) * (size_t)(n > 1 ? n * (n - 1) : 1));
  int len = lk__turn_sequence(n, seq), per = n > 1 ? n - 1 : 1;
  if (len == 0) {
    fprintf(stderr, "lk_time_turns_ms: %d functions (1 to 64 can be timed in turns)\n", n);
    exit(1);
  }
  int cycles = (opt->repeats + per - 1) / per, windows = cycles * per;   /* of each function */
  int *done = (int *)calloc((size_t)n, sizeof(int));
  double *w = (double *)malloc(sizeof(double) * (size_t)n * (size_t)windows);
  for (int t = n > 1 ? -1 : 0; t < cycles * len; ++t) {   /* t = -1: the untimed first window */
    int i = seq[t < 0 ? len - 1 : t % len];
    float ms = 0;
    if (opt->flush_l2) lk_flush_l2();
    LK_CHECK(cudaEventRecord(a, 0));
    for (int c = 0; c < calls[i]; ++c) fn[i](ctx[i]);
    LK_CHECK(cudaEventRecord(b, 0));
    LK_CHECK(cudaEventSynchronize(b));
    LK_CHECK(cudaEventElapsedTime(&ms, a, b));
    LK_CHECK(cudaGetLastError());
    if (t >= 0) w[(size_t)i * windows + done[i]++] = ms / calls[i];
  }
  for (int i = 0; i < n; ++i) {
    double *wi = w + (size_t)i * windows;
    qsort(wi, (size_t)windows, sizeof *wi, lk__cmp_double);
    ms_out[i] = wi[windows / 2];
  }
  free(w);
  free(done);
  free(seq);
  free(calls);
  LK_CHECK(cudaEventDestroy(a));
  LK_CHECK(cudaEventDestroy(b));
}

/* Median milliseconds of one call of fn(ctx), which launches work on the default stream.  Each
 * window repeats fn enough times to last min_window_ms (short windows flatter whichever version
 * has less launch overhead); the per-call time of the median window is returned. */
static inline double lk_time_ms(void (*fn)(void *), void *ctx, const lk_timing *opt)
{
  double ms;
  lk_time_turns_ms(1, &fn, &ctx, opt, &ms);
  return ms;
}

/* ---- data ------------------------------------------------------------------------------------ */

/* xorshift64*: the same numbers on every machine for the same seed */
static inline uint64_t lk_rand64(uint64_t *s)
{
  *s ^= *s >> 12; *s ^= *s << 25; *s ^= *s >> 27;
  return *s * 2685821657736338717ULL;
}

static inline void lk_fill_random(float *h, size_t n, uint64_t seed)
{
  uint64_t s = seed ? seed : 1;
  for (size_t i = 0; i < n; ++i) h[i] = (float)((lk_rand64(&s) >> 40) * (2.0 / 16777216.0) - 1.0);
}

/* Poison a device buffer (every byte 0xff: -1 as int, NaN as float) so an unwritten element is seen. */
static inline void lk_poison(void *d, size_t bytes) { LK_CHECK(cudaMemset(d, 0xff, bytes)); }

/* Compare every element; print the first mismatch; return the number of mismatches. */
static inline size_t lk_compare_int(const int *got, const int *want, size_t n, const char *what)
{
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; ++i)
    if (got[i] != want[i]) { if (!bad) first = i; bad++; }
  if (bad) printf("FAIL %s: %zu of %zu elements differ; first at %zu: got %d, want %d\n", what, bad, n, first, got[first], want[first]);
  return bad;
}

static inline size_t lk_compare_float(const float *got, const float *want, size_t n, double rtol, const char *what)
{
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; ++i) {
    double g = got[i], w = want[i], d = g > w ? g - w : w - g, m = w < 0 ? -w : w;
    if (!(d <= rtol * (m > 1 ? m : 1))) { if (!bad) first = i; bad++; }   /* NaN never passes */
  }
  if (bad) printf("FAIL %s: %zu of %zu elements differ; first at %zu: got %g, want %g\n", what, bad, n, first, got[first], want[first]);
  return bad;
}

/* ---- arguments ------------------------------------------------------------------------------- */

typedef struct lk_args { int argc; char **argv; const char *usage; } lk_args;

static inline void lk_usage_error(const lk_args *a, const char *fmt, const char *arg)
{
  fprintf(stderr, "error: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n%s", a->usage);
  exit(2);
}

/* Check that every argument is one of `known` (a NULL-terminated list of "--name" or "--flag"
 * entries; names ending in '=' take a value).  Unknown arguments are usage errors. */
static inline void lk_args_check(const lk_args *a, const char *const *known)
{
  for (int i = 1; i < a->argc; ++i) {
    int found = 0;
    for (const char *const *k = known; *k; ++k) {
      size_t n = strlen(*k);
      int takes = (*k)[n - 1] == '=';
      if (strncmp(a->argv[i], *k, takes ? n - 1 : n) == 0 && a->argv[i][takes ? n - 1 : n] == 0) {
        found = 1;
        if (takes) { if (i + 1 >= a->argc) lk_usage_error(a, "%s needs a value", a->argv[i]); i++; }
        break;
      }
    }
    if (!found) lk_usage_error(a, "unknown argument %s", a->argv[i]);
  }
}

static inline const char *lk_arg_str(const lk_args *a, const char *name, const char *dflt)
{
  for (int i = 1; i + 1 < a->argc; ++i) if (strcmp(a->argv[i], name) == 0) return a->argv[i + 1];
  return dflt;
}

static inline int lk_arg_flag(const lk_args *a, const char *name)
{
  for (int i = 1; i < a->argc; ++i) if (strcmp(a->argv[i], name) == 0) return 1;
  return 0;
}

static inline long long lk_arg_int(const lk_args *a, const char *name, long long dflt, long long lo, long long hi)
{
  const char *s = lk_arg_str(a, name, NULL);
  if (!s) return dflt;
  char *end;
  long long v = strtoll(s, &end, 10);
  if (*s == 0 || *end != 0) lk_usage_error(a, "not an integer: %s", s);
  if (v < lo || v > hi) lk_usage_error(a, "value out of range: %s", s);
  return v;
}

/* the value of `name`, a directory that must exist and be writable (a usage error otherwise), or
 * NULL where the argument is not given */
static inline const char *lk_arg_dir(const lk_args *a, const char *name)
{
  const char *d = lk_arg_str(a, name, NULL);
  struct stat st;
  if (d && (stat(d, &st) != 0 || !S_ISDIR(st.st_mode) || access(d, W_OK | X_OK) != 0))
    lk_usage_error(a, "not a directory that can be written to: %s", d);
  return d;
}

/* ---- figure data ----------------------------------------------------------------------------- */

/* Open DIR/NAME for writing; its first line names the device and the date, its second what the
 * columns are.  Returns NULL (after a message) if the file cannot be written. */
static inline FILE *lk_data_open(const char *dir, const char *name, const char *columns, int with_device)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (!f) { perror(path); return NULL; }
  char dev[512] = "host only", day[32];
  if (with_device) lk_device_stamp(dev, sizeof dev);
  lk_today(day, sizeof day);
  fprintf(f, "# %s, %s\n# %s\n", dev, day, columns);
  return f;
}

#endif /* LT_LABKIT_H */
