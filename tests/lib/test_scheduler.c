/* test_scheduler.c -- the persistent tile scheduler (lib/tile_scheduler.h) against its definition.
 *
 *   - the work index -> cluster coordinate map equals the cluster layout of CuTeDSL's
 *     PersistentTileSchedulerParams built with the library and evaluated as CuTe's get_flat_coord
 *     does (swizzle > 1), or the fast-divmod order (swizzle 1), over every index;
 *   - the grid never has more CTAs than the work, nor more clusters than are active;
 *   - walking the grid visits every tile of the problem exactly once (the rounded-up clusters of a
 *     swizzle lie outside the problem), and every CTA walks work indices bz, bz+P, bz+2P, ...
 *   - Stream-K (lts_sk_*): the units of all CTAs cover every k iteration of every tile exactly
 *     once; data-parallel tiles are whole; a range is walked as its whole tiles (last first), then
 *     the unit that ends inside a tile, then the range's first tile; each tile has one owner, the
 *     unit holding its last k iteration, which is its CTA's last unit when it has peers; its
 *     `peers` are exactly the earlier CTAs holding the rest of the tile, in descending k, none of
 *     them an owner, each preceded only by whole tiles (so the fix-up order is fixed and the waits
 *     form no cycle);
 *     the Stream-K iterations are shared out evenly; split-K is the special case P = T * s.
 */
#include "layout.h"
#include "tile_scheduler.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

static lt_val tup3(lt_val a, lt_val b, lt_val c) { lt_val t[3] = { a, b, c }; return lt_tuple_of(3, t); }
static lt_val tup2(lt_val a, lt_val b)           { lt_val t[2] = { a, b }; return lt_tuple_of(2, t); }

/* The swizzled cluster layout, as CuTeDSL writes it. */
static lt_layout cluster_layout(const lts_params *p)
{
  int S = p->swizzle, M = p->clusters_m, N = p->clusters_n, L = p->tiles_l;
  if (p->raster_m)
    return lt_make_layout_sd(tup3(lt_int(M), tup2(lt_int(S), lt_int(N / S)), lt_int(L)),
                             tup3(lt_int(S), tup2(lt_int(1), lt_int(S * M)), lt_int(M * N)));
  return lt_make_layout_sd(tup3(tup2(lt_int(S), lt_int(M / S)), lt_int(N), lt_int(L)),
                           tup3(tup2(lt_int(1), lt_int(S * N)), lt_int(S), lt_int(M * N)));
}

/* get_flat_coord(idx) = crd2crd(idx2crd(idx, shape, stride), shape, (_1,_1,_1)) */
static void flat_coord(const lt_layout *l, int idx, int out[3])
{
  lt_val s = lt_shape(*l), d = lt_stride(*l);
  lt_val hier = lt_idx2crd_strided(lt_int(idx), s, d);
  for (int i = 0; i < 3; ++i) {
    lt_val si = lt_get(s, i), ci = lt_get(hier, i);
    if (lt_is_tuple(&ci)) {                          /* colexicographic index within the mode */
      lt_val c0 = lt_get(ci, 0), c1 = lt_get(ci, 1), s0 = lt_get(si, 0);
      out[i] = (int)(lt_value(&c0) + lt_value(&s0) * lt_value(&c1));
    } else {
      out[i] = (int)lt_value(&ci);
    }
  }
}

static uint64_t rng = 12345;
static int rnd(int lo, int hi) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return lo + (int)(rng % (uint64_t)(hi - lo + 1)); }

/* CTA c's Stream-K unit on tile `tile`, or an invalid unit. */
static lts_sk_unit unit_on(const lts_sk_params *sk, int c, int tile)
{
  lts_sk_unit u;
  for (int i = sk->dp_tiles / sk->ctas;; ++i) {
    u = lts_sk_unit_at(sk, c, i);
    if (!u.valid || u.tile == tile || i > sk->dp_tiles / sk->ctas + lts__tiles(&sk->order) + 2) break;
  }
  return u;
}

/* One Stream-K configuration against the contracts above; returns the number of failures. */
static int check_stream_k(const lts_sk_params *sk, int split)
{
  int T = lts__tiles(&sk->order), K = sk->k_iters, P = sk->ctas, bad = 0;
  int waves = sk->dp_tiles / P;
  int *cover = calloc((size_t)T * K, sizeof(int)), *owner = calloc((size_t)T, sizeof(int));
  lts_sk_unit *walk = malloc(sizeof(lts_sk_unit) * (size_t)(T + 3));
  long long lo = sk->sk_iters / P, hi = (sk->sk_iters + P - 1) / P;
  for (int c = 0; c < P; ++c) {
    long long sk_iters = 0;
    int n = 0;                                                  /* the Stream-K units of this CTA */
    for (int i = 0;; ++i) {
      lts_sk_unit u = lts_sk_unit_at(sk, c, i);
      if (!u.valid) break;
      if (i > waves + 2 + T) { bad++; break; }                 /* runaway walk */
      if (u.tile < 0 || u.tile >= T || u.k_begin < 0 || u.k_end > K || u.k_begin >= u.k_end) { bad++; break; }
      int m, n_, l;
      lts_cluster_coord(&sk->order, u.tile, &m, &n_, &l);
      if (m != u.m || n_ != u.n || l != u.l) bad++;
      if (i < waves && (u.tile != c + i * P || u.k_begin != 0 || u.k_end != K)) bad++;
      if (i >= waves) {
        sk_iters += u.k_end - u.k_begin;
        walk[n++] = u;
        if (split && u.k_end - u.k_begin != K / split) bad++;  /* split-K: one of s equal parts */
      }
      for (int k = u.k_begin; k < u.k_end; ++k) cover[u.tile * K + k]++;
      if (u.k_end == K) {
        owner[u.tile]++;
        /* the peers: CTAs c-1 .. c-peers, each holding the k tiles just below, none of them an owner */
        int k = u.k_begin;
        for (int q = 1; q <= u.peers; ++q) {
          lts_sk_unit v = c - q >= 0 ? unit_on(sk, c - q, u.tile) : u;
          if (c - q < 0 || !v.valid || v.tile != u.tile || v.k_end != k || v.k_end == K) { bad++; break; }
          k = v.k_begin;
        }
        if (k != 0) bad++;                                       /* owner + peers: the whole k loop */
        if (u.peers > 0 && lts_sk_unit_at(sk, c, i + 1).valid) bad++;   /* an owner waits last */
      } else if (u.peers != 0) bad++;
    }
    /* the walk of a range of more than one unit: its whole tiles, last first; then the one unit
     * that ends inside a tile, if any (the range's last tile, from k tile 0); then the range's first
     * tile, which ends at the tile's end.  So a unit that others wait for waits for nothing, and is
     * preceded only by whole tiles, which wait for nothing either. */
    if (n > 1) {
      int prev = T;
      for (int q = 0; q < n - 1; ++q) {
        if (walk[q].tile <= walk[n - 1].tile) bad++;            /* the range's first tile comes last */
        if (walk[q].k_end != K) {
          if (q != n - 2 || walk[q].k_begin != 0) bad++;        /* the tail, just before the head */
          if (q > 0 && walk[q].tile <= walk[q - 1].tile) bad++; /* and the range's last tile */
        } else {
          if (walk[q].k_begin != 0 || walk[q].tile >= prev) bad++;   /* whole tiles, last first */
          prev = walk[q].tile;
        }
      }
      if (walk[n - 1].k_end != K) bad++;
    }
    if (sk->sk_tiles > 0 && (sk_iters < lo || sk_iters > hi)) bad++;   /* shared out evenly */
  }
  for (int i = 0; i < T * K; ++i) if (cover[i] != 1) { bad++; break; }
  for (int t = 0; t < T; ++t) if (owner[t] != 1) { bad++; break; }
  free(cover); free(owner); free(walk);
  return bad;
}

static void stream_k(void)
{
  const char *err;
  lts_params order;
  lts_sk_params sk;
  int configs = 0, bad = 0, splits = 0, bad_split = 0, refused = 0;
  for (int t = 0; t < 3000; ++t) {
    int TM = rnd(1, 20), TN = rnd(1, 20), TL = rnd(1, 2), R = rnd(0, 1), S = 1;
    int Sz = rnd(1, 4);
    if ((R ? TN : TM) % Sz == 0) S = Sz;                       /* a swizzle that rounds nothing up */
    if (!lts_init(&order, TM, TN, TL, 1, 1, S, R, &err)) { bad++; continue; }
    int T = TM * TN * TL, K = rnd(1, 40), P = rnd(1, 140);
    int sk_tiles = rnd(0, 3) ? lts_sk_default_tiles(T, P, K) : T;
    if (!lts_sk_init(&sk, &order, K, P, sk_tiles, &err)) {
      /* refused only for the documented reasons */
      if ((T - sk_tiles) % P != 0 || (sk_tiles > 0 && (long long)sk_tiles * K < P)) refused++; else bad++;
      continue;
    }
    configs++;
    int b = check_stream_k(&sk, 0);
    if (b) EXPECT(0, "Stream-K: %d x %d x %d tiles, k %d, %d CTAs, %d Stream-K tiles: %d contract failures",
                  TM, TN, TL, K, P, sk_tiles, b);
    bad += b;
    /* split-K: P = T * s CTAs, s dividing K */
    int s = rnd(1, 4);
    if (K % s == 0 && T * s <= 400 && lts_sk_init(&sk, &order, K, T * s, T, &err)) {
      splits++;
      int bs = check_stream_k(&sk, s);
      if (bs) EXPECT(0, "split-K %d: %d tiles, k %d: %d failures", s, T, K, bs);
      bad_split += bs;
    }
  }
  CHECK(bad == 0 && configs > 1000, "Stream-K on %d random configurations: every k iteration of every tile once, "
        "one owner per tile whose peers hold the rest in the order of k, iterations shared out evenly", configs);
  CHECK(bad_split == 0 && splits > 100, "split-K (P = tiles * s) on %d configurations: every unit one of s equal parts", splits);
  CHECK(refused > 0, "configurations that break a precondition are refused (%d)", refused);
  int rule_bad = 0;
  for (int t = 0; t < 20000; ++t) {                    /* the default rule, wherever P <= T * k_iters */
    int TM = rnd(1, 40), TN = rnd(1, 40), K = rnd(1, 64), P = rnd(1, 200);
    if ((long long)TM * TN * K < P || !lts_init(&order, TM, TN, 1, 1, 1, 1, 1, &err)) continue;
    if (!lts_sk_init(&sk, &order, K, P, lts_sk_default_tiles(TM * TN, P, K), &err)) rule_bad++;
  }
  CHECK(rule_bad == 0, "the default Stream-K tiles are accepted wherever the CTAs do not outnumber the k iterations");
  CHECK(!lts_sk_init(&sk, &order, 0, 4, 0, &err) && err, "k_iters of 0 is refused: %s", err ? err : "");
  lts_params cl;
  lts_init(&cl, 4, 4, 1, 2, 1, 1, 1, &err);
  CHECK(!lts_sk_init(&sk, &cl, 8, 4, 0, &err) && err, "clusters other than 1 x 1 are refused: %s", err ? err : "");
  lts_params rounded;
  lts_init(&rounded, 3, 3, 1, 1, 1, 2, 1, &err);
  CHECK(!lts_sk_init(&sk, &rounded, 8, 4, 1, &err) && err, "a swizzle that rounds up is refused: %s", err ? err : "");
  /* the worked example of the book: 4 x 3 tiles, 8 k tiles each, 5 CTAs */
  lts_init(&order, 4, 3, 1, 1, 1, 1, 1, &err);
  int ok = lts_sk_init(&sk, &order, 8, 5, lts_sk_default_tiles(12, 5, 8), &err);
  CHECK(ok && sk.dp_tiles == 5 && sk.sk_tiles == 7 && sk.sk_iters == 56 && lts_sk_start(&sk, 1) == 11,
        "12 tiles on 5 CTAs: 5 data-parallel tiles (1 wave), the last 7 tiles' 56 iterations 11 or 12 a CTA");
  /* the default: the last wave alone where it holds at least half the CTAs, else a wave more */
  CHECK(lts_sk_default_tiles(512, 132, 64) == 116 && lts_sk_default_tiles(800, 132, 64) == 140 &&
        lts_sk_default_tiles(72, 132, 256) == 72 && lts_sk_default_tiles(264, 132, 64) == 0 &&
        lts_sk_default_tiles(200, 132, 1) == 200,
        "default Stream-K tiles: 116 of 512, 140 of 800, all of 72, none of 264, 200 of 200 at k 1 (on 132 CTAs)");
}

int main(void)
{
  const char *err;
  lts_params p;
  int bad_coord = 0, bad_cover = 0, bad_grid = 0, configs = 0;
  for (int t = 0; t < 3000; ++t) {
    int TM = rnd(1, 23), TN = rnd(1, 23), TL = rnd(1, 3), CM = rnd(1, 2), CN = rnd(1, 2);
    int S = rnd(0, 2) ? rnd(1, 8) : 1, R = rnd(0, 1), active = rnd(1, 40);
    if (!lts_init(&p, TM, TN, TL, CM, CN, S, R, &err)) { CHECK(0, "init refused: %s", err); continue; }
    configs++;
    long long total = lts_num_clusters(&p);
    /* 1. the coordinate map */
    lt_layout cl = S > 1 ? cluster_layout(&p) : lt_int(0);
    for (int idx = 0; idx < total && !bad_coord; ++idx) {
      int m, n, l, want[3];
      lts_cluster_coord(&p, idx, &m, &n, &l);
      if (S > 1) flat_coord(&cl, idx, want);
      else {
        int major = R ? p.clusters_m : p.clusters_n, minor = R ? p.clusters_n : p.clusters_m;
        int a = idx % major, b = (idx / major) % minor;
        want[0] = R ? a : b; want[1] = R ? b : a; want[2] = idx / (major * minor);
      }
      if (m != want[0] || n != want[1] || l != want[2]) {
        bad_coord++;
        EXPECT(0, "tiles (%d,%d,%d) cluster (%d,%d) swizzle %d raster %s: index %d gives (%d,%d,%d), the layout %s gives (%d,%d,%d)",
               TM, TN, TL, CM, CN, S, R ? "m" : "n", idx, m, n, l, S > 1 ? lt_str(&cl) : "-", want[0], want[1], want[2]);
      }
    }
    /* 2. the grid */
    int gx, gy, gz;
    lts_grid(&p, active, &gx, &gy, &gz);
    if (gx != CM || gy != CN || gz < 1 || gz > active || (long long)gz > total) {
      bad_grid++;
      EXPECT(0, "grid (%d,%d,%d) for %lld clusters and %d active", gx, gy, gz, total, active);
    }
    /* 3. every tile of the problem exactly once */
    int *seen = calloc((size_t)TM * TN * TL, sizeof(int));
    for (int bz = 0; bz < gz; ++bz)
      for (int by = 0; by < gy; ++by)
        for (int bx = 0; bx < gx; ++bx)
          for (int k = 0;; ++k) {
            lts_work w = lts_work_at(&p, gz, bx, by, bz, k);
            if (!w.valid) break;
            if (w.idx != bz + k * gz) bad_cover++;
            if (w.m < TM && w.n < TN && w.l < TL) seen[(w.l * TN + w.n) * TM + w.m]++;
          }
    for (int i = 0; i < TM * TN * TL; ++i)
      if (seen[i] != 1) { bad_cover++; EXPECT(0, "tiles (%d,%d,%d) cluster (%d,%d) swizzle %d: tile %d visited %d times", TM, TN, TL, CM, CN, S, i, seen[i]); break; }
    free(seen);
  }
  CHECK(bad_coord == 0, "work index -> cluster coordinate equals CuTeDSL's cluster layout on %d random configurations", configs);
  CHECK(bad_grid == 0, "grid shape (CM, CN, persistent clusters) never exceeds the work or the active clusters");
  CHECK(bad_cover == 0, "every tile of the problem is visited exactly once, each CTA walking bz, bz+P, ...");
  stream_k();
  CHECK(!lts_init(&p, 4, 4, 1, 1, 1, 0, 1, &err) && err, "a swizzle of 0 is refused: %s", err ? err : "");
  CHECK(!lts_init(&p, 0, 4, 1, 1, 1, 1, 1, &err) && err, "zero tiles are refused: %s", err ? err : "");
  return TAP_DONE();
}
