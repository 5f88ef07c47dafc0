#!/usr/bin/env python3
"""Random oracle inputs for the layout algebra.

Writes lines `op<TAB>arg1<TAB>...` (no result column) in the notation of the
CuTe vector files: random layouts of mixed static (`_4`) and dynamic (`4`)
integers, nested shapes, rank-1 tuples, strides that are compact, permuted,
with gaps or zeros, tilers that divide or nearly divide, coordinates with `_`,
thread layouts, projections and identity shapes.  Many lines will not compile
in CuTe (static divisibility checks and the like); the oracle reports those.

    python3 tests/oracle/gen_random.py --family divide --seed 1 --count 400 > in.tsv
    python3 tests/oracle/gen_random.py --family all --seed 1 --count 400 --outdir DIR

The output depends only on --family, --seed and --count.
"""

import argparse
import os
import random
import sys

# --------------------------------------------------------------------------
# values: an integer leaf is I(v, static); a tuple is a Python tuple


class I:
    __slots__ = ("v", "s")

    def __init__(self, v, s):
        self.v = v
        self.s = s


class Basis:
    """A scaled basis stride `_1@i@j` (mode path, outermost first)."""

    __slots__ = ("path",)

    def __init__(self, path):
        self.path = path


UNDER = "_"
XMARK = "X"


def fmt(x):
    if isinstance(x, I):
        return ("_" if x.s else "") + str(x.v)
    if isinstance(x, Basis):
        # CuTe prints the innermost index first
        return "_1" + "".join("@%d" % k for k in reversed(x.path))
    if isinstance(x, Layout):
        return fmt(x.shape) + ":" + fmt(x.stride)
    if isinstance(x, str):
        return x
    return "(" + ",".join(fmt(e) for e in x) + ")"


class Layout:
    __slots__ = ("shape", "stride")

    def __init__(self, shape, stride):
        self.shape = shape
        self.stride = stride

    def __str__(self):
        return fmt(self)


def leaves(x):
    if isinstance(x, tuple):
        out = []
        for e in x:
            out.extend(leaves(e))
        return out
    return [x]


def rebuild(struct, it):
    if isinstance(struct, tuple):
        return tuple(rebuild(e, it) for e in struct)
    return next(it)


def size(x):
    n = 1
    for l in leaves(x):
        n *= l.v
    return n


def depth(x):
    if isinstance(x, tuple):
        return 1 + max([depth(e) for e in x] or [0])
    return 0


def modes(x):
    return list(x) if isinstance(x, tuple) else [x]


def cosize(L):
    m = 0
    for s, d in zip(leaves(L.shape), leaves(L.stride)):
        if isinstance(d, I):
            m += (s.v - 1) * abs(d.v)
    return m + 1


def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


# --------------------------------------------------------------------------
# random pieces


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    # -- basic choices
    def p(self, prob):
        return self.r.random() < prob

    def pick(self, seq):
        return self.r.choice(seq)

    def wpick(self, pairs):
        vals = [v for v, _ in pairs]
        ws = [w for _, w in pairs]
        return self.r.choices(vals, weights=ws)[0]

    def static_mode(self):
        return self.wpick([("static", 4), ("dynamic", 3), ("mixed", 4)])

    def mark(self, mode):
        if mode == "static":
            return True
        if mode == "dynamic":
            return False
        return self.p(0.5)

    def dim(self, big=False):
        if big and self.p(0.3):
            return self.pick([7, 9, 10, 12, 15, 16, 20, 24, 32, 41, 55])
        return self.wpick([(1, 3), (2, 10), (3, 4), (4, 7), (5, 1), (6, 2),
                           (8, 3), (12, 1), (16, 1)])

    # -- shapes
    def shape(self, maxdepth=3, maxrank=4, mode=None, leaf_p=None, big=False,
              top_leaf_p=0.12):
        mode = mode or self.static_mode()
        if maxdepth <= 0 or self.p(top_leaf_p):
            return I(self.dim(big), self.mark(mode))
        for _ in range(20):  # keep sizes moderate, as in the vector files
            sh = self._tuple(maxdepth, maxrank, mode, big, 0)
            if size(sh) <= 1024:
                break
        return sh

    def _tuple(self, maxdepth, maxrank, mode, big, lvl):
        rank = self.wpick([(1, 1.2), (2, 5), (3, 3), (4, 1.5)][:maxrank])
        out = []
        for _ in range(rank):
            nest_p = 0.28 if lvl == 0 else 0.2
            if maxdepth > 1 and self.p(nest_p):
                out.append(self._tuple(maxdepth - 1, maxrank, mode, big, lvl + 1))
            else:
                out.append(I(self.dim(big), self.mark(mode)))
        return tuple(out)

    # -- strides
    def stride_for(self, shape, kind=None, mode=None, neg=False):
        ls = leaves(shape)
        n = len(ls)
        kind = kind or self.wpick([("col", 4), ("right", 2), ("perm", 3),
                                   ("gaps", 3), ("zero", 1), ("random", 1.5)])
        mode = mode or self.static_mode()
        vals = [0] * n
        if kind in ("col", "right", "perm", "gaps", "zero"):
            order = list(range(n))
            if kind == "right":
                order.reverse()
            elif kind in ("perm", "gaps", "zero") and self.p(0.7):
                self.r.shuffle(order)
            run = 1
            if kind == "gaps" and self.p(0.3):
                run = self.pick([2, 3, 4])
            for idx in order:
                vals[idx] = run
                run *= ls[idx].v
                if kind == "gaps" and self.p(0.4):
                    run *= self.pick([2, 2, 3, 4])
            if kind == "zero":
                for i in range(n):
                    if self.p(0.35):
                        vals[i] = 0
        else:
            for i in range(n):
                vals[i] = self.wpick([(0, 1), (1, 3), (2, 3), (3, 1), (4, 2),
                                      (6, 1), (8, 2), (12, 1), (16, 1), (24, 0.5),
                                      (32, 0.5), (48, 0.3), (64, 0.3)])
        if neg:
            for i in range(n):
                if self.p(0.4):
                    vals[i] = -vals[i]
        return rebuild(shape, iter(I(v, self.mark(mode)) for v in vals))

    def layout(self, maxdepth=3, maxrank=4, big=False, kind=None, neg=False,
               smode=None, dmode=None, rank1_p=0.06):
        sh = self.shape(maxdepth, maxrank, mode=smode, big=big)
        if self.p(rank1_p) and not isinstance(sh, tuple):
            sh = (sh,)
        return Layout(sh, self.stride_for(sh, kind, dmode, neg))

    def compact(self, shape, right=False, mode=None):
        return Layout(shape, self.stride_for(shape, "right" if right else "col", mode))

    # -- coordinates
    def crd_int(self, n, static_p=0.25):
        v = self.r.randrange(max(n, 1))
        return I(v, self.p(static_p))

    def hier_crd(self, shape, static_p=0.25):
        if isinstance(shape, tuple):
            return tuple(self.hier_crd(e, static_p) for e in shape)
        return self.crd_int(shape.v, static_p)

    def coord(self, shape, static_p=0.25):
        """An index, a congruent coordinate, or a partly flattened one."""
        k = self.wpick([("index", 3), ("hier", 3), ("mixed", 3)])
        if k == "index" or not isinstance(shape, tuple):
            return self.crd_int(size(shape), static_p)
        if k == "hier":
            return self.hier_crd(shape, static_p)
        return tuple(self.crd_int(size(m), static_p) if self.p(0.5)
                     else self.hier_crd(m, static_p) for m in shape)

    def slice_coord(self, shape, under_p=0.45):
        if not isinstance(shape, tuple):
            return UNDER if self.p(0.5) else self.crd_int(shape.v)
        out = []
        for m in shape:
            if self.p(under_p):
                out.append(UNDER)
            elif isinstance(m, tuple) and self.p(0.45):
                out.append(self.slice_coord(m, under_p))
            else:
                out.append(self.crd_int(size(m), 0.2))
        return tuple(out)

    # -- tiles
    def tile_len(self, n, static_p=0.8):
        """A tile length for a mode of size n: a divisor mostly, sometimes not."""
        k = self.wpick([("div", 6), ("one", 1), ("any", 2), ("full", 1)])
        if k == "div":
            v = self.pick(divisors(n))
        elif k == "one":
            v = 1
        elif k == "full":
            v = n
        else:
            v = self.pick([2, 3, 4, 5, 6, 8, 9, 12, 16, 32])
        return I(v, self.p(static_p))

    def tile_layout(self, n, static_p=0.85):
        """A small layout used as a tiler element for a mode of size n."""
        sm = "static" if self.p(static_p) else "mixed"
        if self.p(0.5):
            t = self.tile_len(n)
            t = I(t.v, self.mark(sm))
            d = self.wpick([(1, 5), (2, 2), (3, 1), (4, 1)])
            return Layout(t, I(d, self.mark(sm)))
        sh = tuple(I(self.pick([1, 2, 2, 3, 4, 6]), self.mark(sm))
                   for _ in range(self.pick([2, 2, 3])))
        kind = self.pick(["col", "col", "perm", "gaps"])
        return Layout(sh, self.stride_for(sh, kind, sm))

    def tiler(self, A_shape, allow_layout=True, allow_under=True,
              allow_int=True, allow_nested=True):
        ms = modes(A_shape)
        k = self.wpick([("layout", 3 if allow_layout else 0),
                        ("int", 1.2 if allow_int else 0),
                        ("tuple", 6)])
        if k == "layout":
            n = size(A_shape)
            if self.p(0.6):
                return self.tile_layout(n)
            t = self.tile_len(n)
            sh = I(t.v, t.s)
            return Layout(sh, I(self.wpick([(1, 6), (2, 2), (4, 1)]), self.p(0.8)))
        if k == "int":
            return self.tile_len(size(A_shape))
        r = len(ms)
        rank = r if self.p(0.6) else self.r.randint(1, r)
        out = []
        for m in ms[:rank]:
            n = size(m)
            e = self.wpick([("int", 6), ("under", 1.5 if allow_under else 0),
                            ("layout", 2.5 if allow_layout else 0),
                            ("nested", 0.8 if (allow_nested and isinstance(m, tuple)) else 0)])
            if e == "int":
                out.append(self.tile_len(n))
            elif e == "under":
                out.append(UNDER)
            elif e == "layout":
                out.append(self.tile_layout(n))
            else:
                out.append(tuple(self.tile_len(size(x)) for x in m))
        return tuple(out)

    def step(self, rank, nx=1):
        idx = list(range(rank))
        xs = set(self.r.sample(idx, min(nx, rank - 1))) if rank > 1 else set()
        return tuple(XMARK if i in xs else I(1, True) for i in idx)


def line(op, *args):
    return op + "\t" + "\t".join(fmt(a) for a in args)


# --------------------------------------------------------------------------
# families


def fam_basics(g, count):
    ops = ["size", "cosize", "rank", "depth", "crd2idx", "idx2crd",
           "make_layout", "make_layout_right"]
    weights = [2, 2, 1, 1, 2.5, 2.5, 1.2, 1.2]
    out = []
    for _ in range(count):
        op = g.r.choices(ops, weights=weights)[0]
        if op in ("size", "cosize", "rank", "depth"):
            out.append(line(op, g.layout()))
        elif op == "crd2idx":
            L = g.layout()
            out.append(line(op, L, g.coord(L.shape)))
        elif op == "idx2crd":
            S = g.shape()
            if g.p(0.1) and not isinstance(S, tuple):
                S = (S,)
            out.append(line(op, S, g.coord(S)))
        else:
            S = g.shape()
            if g.p(0.1) and not isinstance(S, tuple):
                S = (S,)
            out.append(line(op, S))
    return out


def profile_for(g, shape):
    """A coalesce profile: `_1`s shaped like (a prefix of) the layout's shape."""
    if not isinstance(shape, tuple) or g.p(0.2):
        return I(1, True) if g.p(0.3) else (I(1, True),)
    ms = list(shape)
    k = g.wpick([("same", 4), ("prefix", 2), ("flat", 2)])
    if k == "prefix":
        ms = ms[:g.r.randint(1, len(ms))]

    def one(m):
        if isinstance(m, tuple) and k != "flat" and g.p(0.6):
            return tuple(one(e) for e in m)
        return I(1, True)
    return tuple(one(m) for m in ms)


def fam_coalesce(g, count):
    out = []
    for _ in range(count):
        op = g.pick(["coalesce", "coalesce_profile", "filter"])
        L = g.layout(rank1_p=0.1)
        if op == "coalesce_profile":
            out.append(line(op, L, profile_for(g, L.shape)))
        else:
            out.append(line(op, L))
    return out


def rhs_for(g, A, neg=False):
    """A right-hand layout for composition with A."""
    n = size(A.shape)
    k = g.wpick([("tile", 4), ("random", 3), ("shape", 2)])
    if k == "tile":
        # a layout whose image lies in [0, n): compact over a divisor, maybe strided
        t = g.pick(divisors(n))
        sm = g.static_mode()
        if g.p(0.5) or t == 1:
            d = g.pick([dd for dd in divisors(n // t)] or [1])
            return Layout(I(t, g.mark(sm)), I(-d if neg and g.p(0.5) else d, g.mark(sm)))
        # split t into a shape
        parts = []
        rem = t
        while rem > 1 and len(parts) < 3:
            d = g.pick([x for x in divisors(rem) if x > 1])
            parts.append(d)
            rem //= d
        if rem > 1:
            parts.append(rem)
        if len(parts) == 1:
            parts.append(1)
        sh = tuple(I(v, g.mark(sm)) for v in parts)
        return Layout(sh, g.stride_for(sh, g.pick(["col", "perm", "right", "gaps"]), sm, neg))
    if k == "shape":
        sh = g.shape(maxdepth=2, maxrank=3)
        return Layout(sh, g.stride_for(sh, "col"))
    return g.layout(maxdepth=2, maxrank=3, neg=neg)


def basis_rhs(g):
    """(A, B) where B's strides are basis elements that reorder A's modes."""
    sm = "static" if g.p(0.8) else "mixed"
    r = g.pick([2, 2, 3])
    sh = []
    for _ in range(r):
        if g.p(0.25):
            sh.append((I(g.pick([2, 3]), g.mark(sm)), I(g.pick([2, 4]), g.mark(sm))))
        else:
            sh.append(I(g.pick([2, 3, 4, 4, 8]), g.mark(sm)))
    sh = tuple(sh)
    A = Layout(sh, g.stride_for(sh, g.pick(["col", "right", "perm"]), sm))
    # B: pick leaves of A in a permuted order; each mode of B walks one (sub)mode of A
    paths = []
    for i, m in enumerate(sh):
        if isinstance(m, tuple):
            if g.p(0.5):
                for j, e in enumerate(m):
                    paths.append(((i, j), e))
            else:
                paths.append(((i,), m))
        else:
            paths.append(((i,), m))
    g.r.shuffle(paths)
    if len(paths) > 1 and g.p(0.3):
        paths = paths[:-1]
    bsh = []
    for path, m in paths:
        n = size(m)
        v = n if g.p(0.75) else g.pick(divisors(n))
        bsh.append(I(v, True))
    return A, Layout(tuple(bsh), tuple(Basis(p) for p, _ in paths))


def fam_composition(g, count):
    out = []
    for _ in range(count):
        op = g.pick(["composition", "composition_tiler"])
        if op == "composition":
            u = g.r.random()
            if u < 0.06:
                A, B = basis_rhs(g)
            elif u < 0.14:
                A = g.layout(maxdepth=2, maxrank=3, neg=True, smode="static", dmode="static")
                B = rhs_for(g, A, neg=g.p(0.5))
            else:
                A = g.layout()
                B = rhs_for(g, A)
            out.append(line(op, A, B))
        else:
            A = g.layout()
            T = g.tiler(A.shape)
            if not isinstance(T, tuple) and g.p(0.5):
                T = (T,)
            out.append(line(op, A, T))
    return out


def injective(g, **kw):
    return g.layout(kind=g.pick(["col", "right", "perm", "perm", "gaps", "gaps"]), **kw)


def fam_complement(g, count):
    out = []
    for _ in range(count):
        op = g.pick(["complement", "complement1"])
        # CuTe needs static strides to complement a layout of rank > 1
        dmode = "static" if g.p(0.65) else None
        L = injective(g, dmode=dmode) if g.p(0.85) else g.layout(dmode=dmode)
        if op == "complement1":
            out.append(line(op, L))
            continue
        c = cosize(L)
        k = g.wpick([("int", 6), ("shape", 2)])
        if k == "int":
            v = g.wpick([(c, 2), (c * g.pick([2, 3, 4]), 3), (c + g.r.randint(1, 40), 3),
                         (max(1, c - g.r.randint(0, c)), 1), (size(L.shape), 1)])
            out.append(line(op, L, I(v, g.p(0.45))))
        else:
            a = g.pick([2, 3, 4, 8, 16, 28, 32])
            b = max(1, (c + a - 1) // a + g.r.randint(0, 3))
            out.append(line(op, L, (I(a, g.p(0.6)), I(b, g.p(0.6)))))
    return out


def fam_inverse(g, count):
    out = []
    for _ in range(count):
        op = g.pick(["right_inverse", "left_inverse"])
        smode = "static" if g.p(0.7) else None
        dmode = "static" if g.p(0.7) else None
        if g.p(0.75):
            L = injective(g, smode=smode, dmode=dmode)
        else:
            L = g.layout(smode=smode, dmode=dmode)
        out.append(line(op, L))
    return out


def fam_divide(g, count):
    out = []
    for _ in range(count):
        op = g.pick(["logical_divide", "zipped_divide", "tiled_divide", "flat_divide"])
        A = g.layout()
        T = g.tiler(A.shape)
        if isinstance(T, I) and g.p(0.4):
            T = (T,)
        out.append(line(op, A, T))
    return out


def fam_product(g, count):
    ops = ["logical_product", "zipped_product", "tiled_product", "flat_product",
           "blocked_product", "raked_product"]
    out = []
    for _ in range(count):
        op = g.pick(ops)
        # CuTe needs static strides to complement a layout of rank > 1
        A = g.layout(maxdepth=3 if g.p(0.5) else 2,
                     dmode="static" if g.p(0.7) else None)
        k = g.wpick([("layout", 7), ("shape", 2), ("tuple", 1.2)])
        if k == "layout":
            B = g.layout(maxdepth=2, maxrank=3)
            if op in ("blocked_product", "raked_product") and g.p(0.5):
                # same rank as A, as in the usual use
                ra = len(modes(A.shape))
                sh = tuple(I(g.dim(), g.p(0.6)) for _ in range(ra)) if ra > 1 else I(g.dim(), g.p(0.6))
                B = Layout(sh, g.stride_for(sh, g.pick(["col", "right", "perm"])))
        elif k == "shape":
            B = g.shape(maxdepth=1, maxrank=3)
        else:
            ms = modes(A.shape)
            B = tuple(UNDER if g.p(0.25) else
                      Layout((I(g.dim(), g.p(0.5)),), (I(1, g.p(0.5)),)) if g.p(0.3) else
                      g.layout(maxdepth=1, maxrank=2)
                      for _ in ms[:g.r.randint(1, len(ms))])
        out.append(line(op, A, B))
    return out


def problem_layout(g, rank=None, big=True):
    """A tensor-like layout: row/col-major over moderately sized dims."""
    rank = rank or g.wpick([(1, 2), (2, 6), (3, 2)])
    sm = g.static_mode()
    ms = []
    for _ in range(rank):
        if g.p(0.12):
            ms.append((I(g.dim(big), g.mark(sm)), I(g.dim(big), g.mark(sm))))
        else:
            ms.append(I(g.dim(big), g.mark(sm)))
    sh = tuple(ms)
    if rank == 1 and g.p(0.4):
        sh = ms[0]
    kind = g.wpick([("col", 4), ("right", 4), ("perm", 1), ("gaps", 1)])
    return Layout(sh, g.stride_for(sh, kind))


def tile_shape(g, shape, rank=None, layout_p=0.12):
    ms = modes(shape)
    rank = rank or len(ms)
    out = []
    for i in range(rank):
        n = size(ms[i]) if i < len(ms) else 8
        if g.p(layout_p):
            out.append(g.tile_layout(n))
        elif g.p(0.75):
            out.append(I(g.pick([1, 2, 2, 3, 4, 4, 8, 8, 16, 32]), True))
        else:
            t = g.tile_len(n, 0.6)
            out.append(t)
    return tuple(out)


def tile_coord(g, shape, tile, under_p=0.25, rank=None):
    """Coordinate of a tile: per mode an index below ceil(n/t), or `_`."""
    ms = modes(shape)
    ts = modes(tile)
    rank = rank or len(ts)
    k = g.wpick([("full", 6), ("short", 1.5), ("int", 1), ("under", 0.7)])
    if k == "int":
        n = 1
        for i, t in enumerate(ts):
            n *= -(-size(ms[i]) // max(1, size_t(t))) if i < len(ms) else 1
        return I(g.r.randrange(max(n, 1)), g.p(0.1))
    if k == "under":
        return (UNDER,)
    if k == "short":
        rank = g.r.randint(1, max(1, rank - 1))
    out = []
    for i in range(rank):
        if g.p(under_p):
            out.append(UNDER)
            continue
        n = size(ms[i]) if i < len(ms) else 1
        t = size_t(ts[i]) if i < len(ts) else 1
        out.append(I(g.r.randrange(max(1, -(-n // max(1, t)))), g.p(0.1)))
    return tuple(out)


def size_t(t):
    if isinstance(t, Layout):
        return size(t.shape)
    if isinstance(t, str):
        return 1
    return size(t)


def proj_tile(g, shape):
    """A rank+1 tile, a coordinate and a projection with one X, as in the usual
    (M,N,K) tile of a GEMM sliced for one operand."""
    ms = modes(shape)
    r = len(ms)
    tile = tuple(I(g.pick([1, 2, 2, 3, 4, 8, 8, 16, 32]), True) for _ in range(r + 1))
    st = g.step(r + 1, 1)
    # coordinates: the kept modes walk the shape's modes in order
    crd = []
    it = iter(range(r))
    for i in range(r + 1):
        if st[i] == XMARK:
            crd.append(I(g.r.randrange(4), False) if g.p(0.75) else UNDER)
        else:
            j = next(it)
            n = size(ms[j])
            t = tile[i].v
            crd.append(UNDER if g.p(0.2) else I(g.r.randrange(max(1, -(-n // t))), False))
    if g.p(0.1):
        st = g.step(r + 1, 0)
    return tile, tuple(crd), st


def thr_layout(g, rank):
    sm = "static" if g.p(0.7) else "dynamic"
    sh = tuple(I(g.pick([1, 2, 2, 3, 4, 4, 8, 16]), g.mark(sm)) for _ in range(rank))
    if rank == 1 and g.p(0.5):
        sh = sh[0]
    kind = g.wpick([("col", 5), ("right", 2), ("perm", 1)])
    return Layout(sh, g.stride_for(sh, kind, sm))


def fam_partition(g, count):
    out = []
    for _ in range(count):
        op = g.pick(["local_tile", "local_tile_proj", "local_partition",
                     "local_partition_proj"])
        L = problem_layout(g)
        r = len(modes(L.shape))
        if op == "local_tile":
            T = tile_shape(g, L.shape, rank=r if g.p(0.8) else g.r.randint(1, r))
            out.append(line(op, L, T, tile_coord(g, L.shape, T)))
        elif op == "local_tile_proj":
            if r > 2:
                L = problem_layout(g, rank=2)
            T, c, P = proj_tile(g, L.shape)
            out.append(line(op, L, T, c, P))
        elif op == "local_partition":
            thr = thr_layout(g, r if g.p(0.85) else g.r.randint(1, 3))
            out.append(line(op, L, thr, I(g.r.randrange(size(thr.shape)), False)))
        else:
            if r > 2:
                L = problem_layout(g, rank=2)
            r = len(modes(L.shape))
            thr = thr_layout(g, r + 1 if g.p(0.85) else r)
            rt = len(modes(thr.shape))
            P = g.step(rt, 1 if rt > r else 0)
            out.append(line(op, L, thr, I(g.r.randrange(size(thr.shape)), False), P))
    return out


def fam_slice(g, count):
    out = []
    for _ in range(count):
        L = g.layout()
        k = g.wpick([("slice", 8), ("full", 1), ("int", 1)])
        if k == "slice":
            c = g.slice_coord(L.shape)
        elif k == "full":
            c = g.hier_crd(L.shape)
        else:
            c = g.crd_int(size(L.shape))
        out.append(line("slice", L, c))
    return out


def ident_shape(g):
    if g.p(0.4):
        return problem_layout(g).shape
    sh = g.shape(maxdepth=3, maxrank=4)
    if not isinstance(sh, tuple) and g.p(0.5):
        sh = (sh,)
    return sh


def fam_identity(g, count):
    ops = ["identity_layout", "identity_tensor", "identity_eval",
           "identity_local_tile", "identity_local_tile_proj"]
    weights = [2, 1, 2, 2.5, 2.5]
    out = []
    for _ in range(count):
        op = g.r.choices(ops, weights=weights)[0]
        if op in ("identity_layout", "identity_tensor"):
            out.append(line(op, ident_shape(g)))
        elif op == "identity_eval":
            S = ident_shape(g)
            out.append(line(op, S, g.coord(S, 0.15)))
        elif op == "identity_local_tile":
            S = problem_layout(g).shape
            S = S if isinstance(S, tuple) else (S,)
            r = len(S)
            T = tile_shape(g, S, rank=r if g.p(0.8) else g.r.randint(1, r), layout_p=0.05)
            out.append(line(op, S, T, tile_coord(g, S, T)))
        else:
            S = problem_layout(g, rank=g.pick([1, 2, 2, 2])).shape
            S = S if isinstance(S, tuple) else (S,)
            T, c, P = proj_tile(g, S)
            out.append(line(op, S, T, c, P))
    return out


FAMILIES = {
    "basics": fam_basics,
    "coalesce": fam_coalesce,
    "composition": fam_composition,
    "complement": fam_complement,
    "inverse": fam_inverse,
    "divide": fam_divide,
    "product": fam_product,
    "partition": fam_partition,
    "slice": fam_slice,
    "identity": fam_identity,
}


def generate(family, seed, count):
    # each family has its own stream, so one family's output does not depend on others
    g = Gen("%s:%d" % (family, seed))
    lines = []
    seen = set()
    tries = 0
    while len(lines) < count and tries < 50:
        tries += 1
        for ln in FAMILIES[family](g, count - len(lines)):
            if ln not in seen:
                seen.add(ln)
                lines.append(ln)
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--family", default="all",
                    help="one of: all, " + ", ".join(FAMILIES))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=400, help="lines per family")
    ap.add_argument("--outdir", help="write <outdir>/in_<family>.tsv instead of stdout")
    a = ap.parse_args()
    fams = list(FAMILIES) if a.family == "all" else a.family.split(",")
    for f in fams:
        if f not in FAMILIES:
            ap.error("unknown family %r" % f)
    for f in fams:
        lines = generate(f, a.seed, a.count)
        text = "".join(l + "\n" for l in lines)
        if a.outdir:
            os.makedirs(a.outdir, exist_ok=True)
            with open(os.path.join(a.outdir, "in_%s.tsv" % f), "w") as fh:
                fh.write(text)
        else:
            sys.stdout.write(text)


if __name__ == "__main__":
    main()
