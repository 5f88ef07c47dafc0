/* test_scheduler.c -- the persistent tile scheduler (lib/tile_scheduler.h) against its definition.
 *
 *   - the work index -> cluster coordinate map equals the cluster layout of CuTeDSL's
 *     PersistentTileSchedulerParams built with the library and evaluated as CuTe's get_flat_coord
 *     does (swizzle > 1), or the fast-divmod order (swizzle 1), over every index;
 *   - the grid never has more CTAs than the work, nor more clusters than are active;
 *   - walking the grid visits every tile of the problem exactly once (the rounded-up clusters of a
 *     swizzle lie outside the problem), and every CTA walks work indices bz, bz+P, bz+2P, ...
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
  CHECK(!lts_init(&p, 4, 4, 1, 1, 1, 0, 1, &err) && err, "a swizzle of 0 is refused: %s", err ? err : "");
  CHECK(!lts_init(&p, 0, 4, 1, 1, 1, 1, 1, &err) && err, "zero tiles are refused: %s", err ? err : "");
  return TAP_DONE();
}
