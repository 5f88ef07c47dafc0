#!/usr/bin/env python3
"""Write predict.tsv: the schedules of CuTeDSL's StaticPersistentTileScheduler, restated.

This is an independent statement of the rules of CuTeDSL's PersistentTileSchedulerParams and
StaticPersistentTileScheduler (cutlass/utils/static_persistent_tile_scheduler.py), written from
their definitions in terms of CuTe layouts -- not from lib/tile_scheduler.h:

  clusters   = ceil_div((TM, TN, TL), (CM, CN, 1))
  swizzle S > 1 rounds the clusters along n (raster m) or m (raster n) up to a multiple of S and
  builds the layout
      raster m: (M, (S, N/S), L) : (S, (1, S*M), M*N)
      raster n: ((S, M/S), N, L) : ((1, S*N), S, M*N)
  and a work index i becomes the cluster coordinate get_flat_coord(i): the hierarchical
  coordinate idx2crd(i, shape, stride) -- (i / stride) % shape at every leaf -- flattened
  colexicographically within each mode;
  swizzle 1 decodes i with divisions: major = i % (M or N), minor = (i / major-count) % the other,
  l = i / (M*N), major being m for raster m and n for raster n;
  grid = (CM, CN, min(ctas in problem, active * CM*CN) / (CM*CN)), ctas in problem counted over
  the rounded clusters; CTA (bx, by, bz) starts at i = bz and adds grid z each iteration; i is
  valid while i < M*N*L (rounded); its tile = cluster coordinate * (CM, CN, 1) + (bx % CM, by % CN, 0).

Run it (python3 gen_predict.py > predict.tsv) to regenerate; the check (tests/checks/
76_scheduler_predict.sh) needs only the .tsv.
"""


def ceil_div(a, b):
    return (a + b - 1) // b


def idx2crd(i, shape, stride):
    if isinstance(shape, tuple):
        return tuple(idx2crd(i, s, d) for s, d in zip(shape, stride))
    return (i // stride) % shape


def flatten_mode(crd, shape):
    """The colexicographic index of a (possibly nested) coordinate within its mode."""
    if not isinstance(shape, tuple):
        return crd
    idx, mult = 0, 1
    for c, s in zip(crd, shape):
        idx += flatten_mode(c, s) * mult
        mult *= size(s)
    return idx


def size(shape):
    if isinstance(shape, tuple):
        n = 1
        for s in shape:
            n *= size(s)
        return n
    return shape


def schedule(tm, tn, tl, cm, cn, S, raster_m, active):
    M, N, L = ceil_div(tm, cm), ceil_div(tn, cn), tl
    if S > 1:
        if raster_m:
            N = ceil_div(N, S) * S
            shape, stride = (M, (S, N // S), L), (S, (1, S * M), M * N)
        else:
            M = ceil_div(M, S) * S
            shape, stride = ((S, M // S), N, L), ((1, S * N), S, M * N)

        def coord(i):
            h = idx2crd(i, shape, stride)
            return tuple(flatten_mode(c, s) for c, s in zip(h, shape))
    else:
        def coord(i):
            major, minor = (M, N) if raster_m else (N, M)
            a, rest = i % major, i // major
            b, l = rest % minor, rest // minor
            return (a, b, l) if raster_m else (b, a, l)
    total = M * N * L
    per_cluster = cm * cn
    in_problem = M * cm * N * cn * L
    gz = min(in_problem, active * per_cluster) // per_cluster
    gx, gy = cm, cn
    lines = []
    for bz in range(gz):
        for by in range(gy):
            for bx in range(gx):
                cta = bx + gx * (by + gy * bz)
                k, i = 0, bz
                while i < total:
                    m, n, l = coord(i)
                    lines.append("cta %d iter %d idx %d tile %d %d %d" % (cta, k, i, m * cm + bx % cm, n * cn + by % cn, l))
                    k += 1
                    i += gz
    return lines


CONFIGS = []
# the seed's five configurations
CONFIGS += [(4, 4, 1, 1, 1, 1, "m", 8), (4, 4, 1, 1, 1, 1, "n", 8), (4, 4, 1, 1, 1, 2, "m", 8),
            (4, 4, 1, 2, 1, 1, "m", 4), (4, 4, 1, 2, 1, 2, "m", 4)]
# swizzle 1..8, both rasters, on a ragged 7 x 9 problem, 10 active clusters
for S in range(1, 9):
    for r in "mn":
        CONFIGS.append((7, 9, 1, 1, 1, S, r, 10))
# clusters 1x1, 2x1, 1x2, 2x2, ragged counts, swizzle 1, 2, 3, both rasters
for cm, cn in ((1, 1), (2, 1), (1, 2), (2, 2)):
    for S in (1, 2, 3):
        for r in "mn":
            CONFIGS.append((5, 6, 1, cm, cn, S, r, 3))
# L > 1
CONFIGS += [(3, 4, 3, 1, 1, 1, "m", 5), (3, 4, 3, 1, 1, 2, "n", 5), (4, 3, 2, 2, 1, 4, "m", 3),
            (2, 2, 4, 1, 2, 1, "n", 2), (6, 5, 2, 2, 2, 2, "m", 4)]
# more active clusters than work
CONFIGS += [(2, 3, 1, 1, 1, 1, "m", 100), (3, 3, 1, 2, 2, 1, "m", 64), (3, 5, 2, 1, 1, 4, "n", 1000),
            (1, 1, 1, 1, 1, 8, "m", 16)]
# a single active cluster, and a larger problem
CONFIGS += [(4, 5, 1, 1, 1, 2, "m", 1), (16, 12, 1, 2, 2, 8, "n", 33), (33, 17, 1, 1, 1, 4, "m", 132)]

if __name__ == "__main__":
    print("# args<TAB>expected line of --predict: one line per work item, per configuration in order")
    for c in CONFIGS:
        tm, tn, tl, cm, cn, S, r, active = c
        args = "%d %d %d %d %d %d %s %d" % c
        for line in schedule(tm, tn, tl, cm, cn, S, r == "m", active):
            print("%s\t%s" % (args, line))
