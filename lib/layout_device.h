/* layout_device.h -- layouts evaluated inside CUDA kernels (header-only).
 *
 * The algebra runs on the host; the device only evaluates.  A kernel cannot call the algebra (it
 * works on trees and is far too slow per thread), so the host computes the layout it needs --
 * zipped_divide(mA, tiler), a local_partition, a product -- and flattens it into an `ltd_layout`:
 * at most LTD_MAX_LEAVES (shape, stride) pairs, grouped into top-level modes.  The struct is
 * passed to the kernel by value; the kernel evaluates it.
 *
 *   host:    lt_layout z = lt_zipped_divide(mA, tiler);     // ((BLK_M,BLK_N),(m,n))
 *            ltd_layout dz; ltd_from_layout(&z, &dz, err, sizeof err);
 *   kernel:  int tile0 = ltd_mode(&dz, 1, blockIdx.x);      // offset of this CTA's tile
 *            float v   = A[tile0 + ltd_mode(&dz, 0, i)];    // element i of the tile
 *
 * That is what CuTe's local_tile(mA, tiler, coord) means: divide, then slice the rest mode at
 * coord (giving an offset) and keep the tile mode.
 *
 * Compiles as plain C11 under gcc and as __host__ __device__ code under nvcc.
 */
#ifndef LT_LAYOUT_DEVICE_H
#define LT_LAYOUT_DEVICE_H

#include <stdint.h>

#if defined(__CUDACC__)
#define LTD_FN __host__ __device__ static inline
#else
#define LTD_FN static inline
#endif

#define LTD_MAX_LEAVES 12
#define LTD_MAX_MODES  6

typedef struct ltd_layout {
  int nleaves;                       /* flattened (shape, stride) pairs */
  int nmodes;                        /* top-level modes */
  int first[LTD_MAX_MODES + 1];      /* mode m covers leaves [first[m], first[m+1]) */
  int shape[LTD_MAX_LEAVES];
  int stride[LTD_MAX_LEAVES];
} ltd_layout;

#if defined(__CUDA_ARCH__)                 /* the device pass only: gcc does not know the pragma */
#define LTD_UNROLL _Pragma("unroll")
#else
#define LTD_UNROLL
#endif

/* Leaves [b, e) evaluated at the colexicographic index idx: the offset.  The last leaf takes
 * whatever is left of idx (as CuTe's crd2idx does), so an index past the end extends the layout.
 *
 * The loop runs over all LTD_MAX_LEAVES slots with a predicate, not over [b, e): a constant trip
 * count lets nvcc unroll it, so every array index is a constant and the struct stays in registers
 * (with a run-time trip count it went to local memory and the tiled copy of lab 02 lost 17% of its
 * bandwidth).  With constant b, e and shapes the dead slots and the divisions fold away. */
// ANCHOR: eval_range
LTD_FN int ltd_eval_range(const ltd_layout *l, int b, int e, int idx)
{
  int off = 0;
  LTD_UNROLL
  for (int k = 0; k < LTD_MAX_LEAVES; ++k) {
    if (k >= e) break;                     /* nothing left: leave before the dead slots */
    if (k >= b) {
      if (k == e - 1) {
        off += idx * l->stride[k];
      } else {
        int s = l->shape[k];
        off += (idx % s) * l->stride[k];
        idx /= s;
      }
    }
  }
  return off;
}
// ANCHOR_END: eval_range

/* layout(i): the offset of 1-D index i (all modes, colexicographic). */
LTD_FN int ltd_eval(const ltd_layout *l, int i) { return ltd_eval_range(l, 0, l->nleaves, i); }

/* The offset of 1-D index i within top-level mode m alone (coordinates of other modes 0). */
LTD_FN int ltd_mode(const ltd_layout *l, int m, int i) { return ltd_eval_range(l, l->first[m], l->first[m + 1], i); }

/* layout(c0, c1): a rank-2 coordinate, each component a 1-D index into its mode. */
LTD_FN int ltd_eval2(const ltd_layout *l, int c0, int c1) { return ltd_mode(l, 0, c0) + ltd_mode(l, 1, c1); }

/* The number of elements of mode m (or of the whole layout with ltd_size). */
LTD_FN int ltd_mode_size(const ltd_layout *l, int m)
{
  int n = 1;
  LTD_UNROLL
  for (int k = 0; k < LTD_MAX_LEAVES; ++k) if (k >= l->first[m] && k < l->first[m + 1]) n *= l->shape[k];
  return n;
}
LTD_FN int ltd_size(const ltd_layout *l)
{
  int n = 1;
  LTD_UNROLL
  for (int k = 0; k < LTD_MAX_LEAVES; ++k) if (k < l->nleaves) n *= l->shape[k];
  return n;
}

/* A rank-2 tile (m,n):(s0,s1) as a one-mode device layout.  Called with compile-time constants
 * for m and n (and s0), it lets the compiler fold the evaluation to the index arithmetic one would
 * write by hand: (i % m) * s0 + (i / m) * s1. */
LTD_FN ltd_layout ltd_tile2(int m, int n, int s0, int s1)
{
  ltd_layout l;
  l.nleaves = 2; l.nmodes = 1; l.first[0] = 0; l.first[1] = 2;
  l.shape[0] = m; l.shape[1] = n; l.stride[0] = s0; l.stride[1] = s1;
  return l;
}

/* A thread layout evaluated backwards, as local_partition does: thread `tid` of layout thr sits at
 * coordinate ((tid / stride) % shape) in each leaf (CuTe's idx2crd with strides, get_flat_coord);
 * that coordinate, taken colexicographically, is the index into the thread tiler's modes. */
LTD_FN int ltd_thread_index(const ltd_layout *thr, int tid)
{
  int idx = 0, scale = 1;
  LTD_UNROLL
  for (int k = 0; k < LTD_MAX_LEAVES; ++k) {
    if (k < thr->nleaves) {
      int s = thr->shape[k], d = thr->stride[k];
      int c = (s == 1 || d == 0) ? 0 : (tid / d) % s;
      idx += c * scale;
      scale *= s;
    }
  }
  return idx;
}

/* ---- host: conversion from the library's layouts ------------------------------------------- */
#if defined(LT_LAYOUT_H)   /* host code: include layout.h first */
#include <stdio.h>

static inline int ltd__leaves(const lt_node *r, ltd_layout *out, int is_stride, int *k)
{
  if (r->kind == LT_TUPLE) {
    const lt_node *c = r + 1;
    for (int i = 0; i < r->arity; ++i, c += c->span)
      if (ltd__leaves(c, out, is_stride, k)) return -1;
    return 0;
  }
  if (r->kind != LT_INT || r->nb != 0) return -1;
  if (*k >= LTD_MAX_LEAVES || r->v > INT32_MAX || r->v < INT32_MIN) return -1;
  if (!is_stride && r->v < 1) return -1;                 /* an empty mode holds no element */
  if (is_stride) out->stride[*k] = (int)r->v; else out->shape[*k] = (int)r->v;
  ++*k;
  return 0;
}

/* Flatten a layout for the device.  Returns 0, or -1 with a message in err (an error value, a
 * basis stride, more than LTD_MAX_LEAVES leaves or LTD_MAX_MODES modes, a value beyond int). */
static inline int ltd_from_layout(const lt_layout *l, ltd_layout *out, char *err, size_t cap)
{
  if (!lt_ok(l)) { snprintf(err, cap, "%s", lt_error(l)); return -1; }
  if (!lt_is_layout(l)) { snprintf(err, cap, "not a layout"); return -1; }
  const lt_node *s = l->nd + 1, *d = s + s->span;
  int modes = s->kind == LT_TUPLE ? s->arity : 1;
  if (modes > LTD_MAX_MODES) { snprintf(err, cap, "%d modes: the device form holds at most %d", modes, LTD_MAX_MODES); return -1; }
  out->nmodes = modes;
  int ks = 0, kd = 0;
  if (s->kind == LT_TUPLE) {
    const lt_node *cs = s + 1, *cd = d + 1;
    for (int m = 0; m < modes; ++m, cs += cs->span, cd += cd->span) {
      out->first[m] = ks;
      if (ltd__leaves(cs, out, 0, &ks) || ltd__leaves(cd, out, 1, &kd)) goto bad;
    }
  } else {
    out->first[0] = 0;
    if (ltd__leaves(s, out, 0, &ks) || ltd__leaves(d, out, 1, &kd)) goto bad;
  }
  out->first[modes] = ks;
  out->nleaves = ks;
  for (int m = 0; m < modes; ++m)
    if (out->first[m] == out->first[m + 1]) {       /* an empty mode () evaluates to 0 */
      snprintf(err, cap, "mode %d is empty", m);
      return -1;
    }
  return 0;
bad:
  snprintf(err, cap, "the device form needs at most %d integer leaves that fit an int, shapes >= 1 (layout %s)", LTD_MAX_LEAVES, lt_str(l));
  return -1;
}
#endif

#endif /* LT_LAYOUT_DEVICE_H */
