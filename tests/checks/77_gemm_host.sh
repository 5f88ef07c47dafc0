#!/usr/bin/env bash
# Lab 07 (the GEMM ladder) on the host: it builds for sm_80 and sm_90a with no warning (the lab
# rule compiles with -Werror), every kernel file also compiles alone for sm_80 and sm_90 and the
# Hopper steps (11-17, 19-22) for sm_90a, no kernel spills registers to local memory or has a stack
# frame, ptxas reports no serialized wgmma (C7515-C7520) and no ignored setmaxnreg (C7508), the host-only
# self-test passes (the fp64 reference against a naive fp32 GEMM, the tolerance and the guard on
# planted errors), --route's choices follow the clusters' rule, the estimates it prints and step
# 19's limits at 180 random shapes and 10 large ones, and bad arguments are usage errors.
cd "$(dirname "$0")/../.." && . tests/book/lib.sh
bin=$B/bin/07_gemm
nvcc=$(make --no-print-directory -s -f Makefile -f - print-nvcc <<'MK'
print-nvcc: ; @echo '$(NVCC)|$(NVCCFLAGS)|$(07_gemm_NVCCFLAGS)'
MK
)
hflags=${nvcc##*|}; nvcc=${nvcc%|*}
flags=${nvcc#*|}; nvcc=${nvcc%%|*}
if [ -z "$nvcc" ]; then ok "lab 07 # SKIP nvcc not found"; exit 0; fi
if make --no-print-directory -s "$bin" >/dev/null 2>&1; then ok "$bin builds for sm_80 and sm_90a with warnings as errors"
else not_ok "$bin does not build"; exit 1; fi

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for f in labs/07_gemm/[0-9]*_*.cu; do
	fl=$flags; what="sm_80, sm_90"
	case $(basename "$f") in 1[1-9]_*|2[0-9]_*) fl=$hflags; what="sm_80, sm_90a";; esac
	# shellcheck disable=SC2086
	if ! "$nvcc" $fl -Xptxas -v -c -o "$tmp/k.o" "$f" >"$tmp/ptxas" 2>&1; then
		not_ok "$f does not compile alone ($what)"; sed 's/^/# /' "$tmp/ptxas" | head -5; continue
	fi
	if grep -E 'bytes spill (stores|loads)' "$tmp/ptxas" | grep -vq ' 0 bytes spill stores, 0 bytes spill loads'; then
		not_ok "$f spills registers"; grep spill "$tmp/ptxas" | sed 's/^/# /'
	elif grep -q 'bytes stack frame' "$tmp/ptxas" && grep 'bytes stack frame' "$tmp/ptxas" | grep -vq ' 0 bytes stack frame'; then
		not_ok "$f uses a stack frame"
	elif grep -Eq '\(C75(0[0-9]|1[0-9]|20)\)' "$tmp/ptxas"; then
		not_ok "$f: ptxas reports a performance loss"; grep -E 'C75' "$tmp/ptxas" | sed 's/^/# /'
	else
		ok "$f: no spills, no stack frame, no serialized wgmma ($what)"
	fi
done
# the Hopper files alone for plain sm_90 as well (their kernels are empty there, their launchers fall back)
for f in labs/07_gemm/1[1-9]_*.cu labs/07_gemm/2[0-9]_*.cu labs/07_gemm/3[0-9]_*.cu; do
	# shellcheck disable=SC2086
	"$nvcc" $flags -c -o "$tmp/k.o" "$f" >"$tmp/ptxas" 2>&1 && ok "$f compiles for sm_80, sm_90" || not_ok "$f does not compile for sm_80, sm_90"
done

if CUDA_VISIBLE_DEVICES= "$bin" --self-test >"$tmp/out" 2>&1 && grep -q '^self-test: PASS' "$tmp/out"; then
	ok "07_gemm --self-test: reference, tolerance and guard pass their tests"
else
	not_ok "07_gemm --self-test fails"; grep -E 'FAIL|self-test' "$tmp/out" | sed 's/^/# /'
fi
n=$(grep -c '^  ok ' "$tmp/out")
[ "$n" -ge 10 ] && ok "the self-test runs $n checks" || not_ok "the self-test runs only $n checks"

# --route against the rules it prints (hopper.cu, 18_fp32_stream_k.cu), at 180 shapes from 1 to 9000 (and 92 chosen ones) on
# 132 SMs, with lda = M and ldb = K: below K = 128 with M or K not a multiple of 8, step 9 (or
# step 8 for a tiny problem, as gh_route), and with both, never 8 or 9 but the rules below; where
# M or N is 64 or less, step 25's narrow tiles, and only there; where N is at most 128 and the
# (128,128) tiles more than 132, step 30, 26 or 29, whichever tile height (256, 192, 128) puts the
# fewest rows on the busiest SM, the taller where they tie, step 30 named with (256,96) tiles where
# N <= 96, else (256,128), no padded copies; step 30 nowhere else; step 29 where (128,128) tiles fit
# on the SMs at once and step 20's CTAs do not, named with (128,96) tiles where those fit at once
# and (128,128) ones elsewhere: always where K <= 3072, and beyond exactly where the
# rules below give step 16, which never runs there, or, with both operands on lines and K <= 6656,
# Stream-K (step 15 or 22), which never runs there either, or, where its tiles along n are even in
# number, step 15 (never 21 or 22 there, nor 27 by its rule); named "in pairs that share A" exactly
# where K > 3072 and its tiles along n are even in number; below 3 (128,256) tiles per SM with
# neither operand off lines, step 26 exactly where its (192,96) or (192,128) tiles (whichever
# estimate is lower) fit in one wave or the route would run (128,256) tiles (step 12 or 15), step
# 20's CTAs do not fit, and its estimate is below the other four; from 3 (128,256) tiles per SM on,
# with neither operand off lines, step 26 exactly where the route would run step 15 or 17 and not
# step 14's clusters, (192,128) is its width, and its persistent estimate (whole waves
# of (192,128) tiles, each 0.74 k + 3.3) is below 0.98 of Stream-K's (step 15) or of whole waves
# of (128,256) tiles, each k + 2 (step 17); where B's columns lie off 128-byte lines (K a multiple
# of 8 but not of 64), step 27 exactly
# where its estimate over pairs of (128,256) tiles (checked against its formula, as is step 14's
# over whole pairs) is below 0.97 of step 14's, and there are at least 3 (128,256) tiles per SM, or
# fewer, two tile rows or more and the route would run step 12 or 15; with at least 3 (128,256) tiles
# per SM, step 14's clusters exactly where B's columns lie off lines and step 27 does not pay, or
# where A's do not (M a multiple of 64, or not of 8), K >= 8192 (4096 where (192,192) tiles win by
# their estimates), the (128,256) tiles number at least 8 per SM and 0.97 of whole tiles' estimate is below
# Stream-K's; step 23's exactly where B's columns lie on lines, A's off them (M a multiple of 8 but
# not of 64) and 0.95 of whole tiles' estimate is below Stream-K's, or where the route would run
# step 17 with both on lines, K > 4096 and the pairs of tiles along n as many waves of 66 clusters
# as the tiles of 132 SMs; below 3 (128,256) tiles per SM
# with B's columns off lines, where step 27 does not pay, step 14's clusters exactly where the
# route would run step 12 with two tile rows or more (with B on lines too, where those tiles take
# more than one wave), or step 15 with two tile rows or more,
# K >= 4608 and the waves of (128,256) tiles at least 0.6 full, step 24's exactly where it would
# run step 21 with two (192,192) tile rows or more; below 3 (128,256) tiles per SM with B's columns on
# lines, step 22 exactly where its schedule splits every (192,192) tile into 2 to 4 equal parts and
# its estimate is below Stream-K's and whole tiles' (step 21's own not below both); Stream-K's
# estimates, over (128,256) and (192,192) tiles and over pairs, checked against their formulas, on
# p T CTAs (p = 2 to 4, a fixed cost of 14 in place of 24) where the tiles fit p times and that is
# lower, and the route line of step 15, 22 or 27 names p and the CTAs there and only there; elsewhere each choice follows its four estimates (step 21 or 22 where step 21's is below
# the first two, step 22 of them where its own is below step 21's; else step 15 where Stream-K's is
# below whole tiles'); step 16 or 19 only where the (128,128) tiles U fit
# (U <= 132), step 20 only where its CTAs (one per (64,128) tile, in pairs along m) do; step 19 only with 2 to 64 parts, U x parts <= 132 and 4 k tiles a part or more: all
# the limits allow up to 3, with the owner's fix-up, and beyond, shared, all of them up to 16 where
# each part keeps 24 k tiles or more (the most that do, from 4), or the largest power of two if more;
# its parts in pairs that share A where the tile columns are even in number, else in pairs that
# share B where the tile rows are and B lies off lines (K a multiple of 8, not of 64), else alone.
# Padded copies first (a "route padded:" line before the route) only where M and K are both 8 more
# than a multiple of 16 and the (128,128) tiles fit, and where the route is step 29 exactly where
# they are so and K >= 1024; the route on the copies follows the rules above as for operands on
# lines; and never step 16 where M and K are both so.
# fp32 (step 18's launcher): its three estimates against their formulas, over T (128,256) tiles of
# k k tiles of 8; step 31 where whole tiles' is the lowest, else split-K in p = min(132 / T, k / 4,
# 32) parts where p >= 2 and its estimate is below Stream-K's, else Stream-K
shapes=$(awk 'BEGIN { srand(7); for (c = 0; c < 3; c++) { l = ""; for (i = 0; i < 60; i++) {
	m = int(exp(rand() * log(9000))) + 1; n = int(exp(rand() * log(9000))) + 1; k = int(exp(rand() * log(9000))) + 1
	l = l (i ? "," : "") m "x" n "x" k } print l } }')
# and sixteen large shapes where (192,192) tiles win, whole (step 21) or by Stream-K (step 22), or the
# clusters do (step 14 or 23), or A's columns lie off lines but Stream-K stays (5000 x 5000 x 4096)
shapes="$shapes 6144x6144x8192,9216x9216x4096,7680x7680x8192,3072x3072x4096,6144x6144x4096,6144x6144x6144"
shapes="$shapes 5760x5760x8192,8192x8192x8192,16384x4096x8192,8192x8192x9000"
shapes="$shapes 8200x8200x8192,6000x6000x6000,10000x8192x2048,5000x5000x4096,8200x8192x4096,9000x9000x4104"
# and five of fewer than three waves with B's columns off lines, where step 12's (128,256) tiles
# (1000 x 4000 x 3000, 2000 x 4000 x 3000) or step 21's (192,192) ones (3000^3, 3000 x 3000 x 5000,
# 3000 x 3000 x 2000) give way to clusters that share B (step 14, step 24)
shapes="$shapes 1000x4000x3000,2000x4000x3000,3000x3000x3000,3000x3000x5000,3000x3000x2000"
# and six where the route runs Stream-K with B off lines: step 27's Stream-K in clusters in its place
shapes="$shapes 2000x3000x9000,1700x2900x9800,1800x2600x7000,2000x3000x4000,1600x3200x4400,1100x1100x9800"
# and four of many waves with B off lines where step 27 takes step 14's place (6000^3 above, 9000 x 9000 x
# 4104 and 8192 x 8192 x 9000 keep step 14: their estimates are within 3% of whole tiles')
shapes="$shapes 5000x5000x5000,5120x5120x5000,2600x1800x5400,6600x6600x4000"
# and eight of about one wave: step 26's (192,96) or (192,128) tiles at the first three, and at the
# fourth until step 29 took in (128,128) tiles (now step 29's); not at 768^3 (step 20's CTAs fit),
# 1152 x 1152 x 8192 (Stream-K's estimate is lower), 3000 x 1000 x 3000 (off lines), 1792^3 (two waves)
shapes="$shapes 1536x1536x1536,1664x1664x1664,768x3072x768,2048x1024x2048"
shapes="$shapes 768x768x768,1152x1152x8192,3000x1000x3000,1792x1792x1792"
# and five with fewer tiles than SMs where Stream-K may cut every tile into the same number of
# parts: step 22's (192,192) tiles at the first three, step 15's (128,256) tiles in 2 parts at the
# fourth; at the last, 25 (192,192) tiles would take 5 parts, one more than the rule allows
shapes="$shapes 1536x1536x8192,1344x1152x8192,768x1536x8192,1920x1024x8192,960x960x8192"
# and four more: two waves of step 26's (192,128) tiles in place of step 12's (128,256) tiles and of
# step 15's Stream-K, step 21's (192,192) tiles kept where step 26's estimate is lower, and step
# 14's clusters in place of step 21 at K = 7168
shapes="$shapes 2048x3072x1024,2048x3072x4096,1536x6144x1024,7168x7168x7168"
# and two with B on lines below three waves: step 14's clusters in place of step 12's (128,256)
# tiles in two waves (3584 x 3584 x 1024), not in one (2048^3)
shapes="$shapes 3584x3584x1024,2048x2048x2048"
# and five of 3 (128,256) tiles per SM or more: step 26's (192,128) tiles in place of step 17's whole
# tiles (6656 x 1856 x 640, 10432 x 1536 x 5120, 11456 x 1920 x 1728) and of step 15's Stream-K
# (6144 x 4224 x 4544); not at 5696 x 2752 x 2304 (its estimate 1.5% below step 17's, short of 2%)
shapes="$shapes 6656x1856x640,6144x4224x4544,10432x1536x5120,11456x1920x1728,5696x2752x2304"
# and seven where step 16 or 29 would read both operands off lines: padded copies first where M and
# K are both 8 more than a multiple of 16 (1160^3, 1080 x 1080 x 3000, and 1400^3, step 16's until
# step 29 took in (128,128) tiles), not at 1200^3 or 1240 x 1240 x 2000, nor for step 29 below K =
# 1024 (1224 x 816 x 472, and 1096 x 1776 x 456, which took the copies while its route was step 16)
shapes="$shapes 1160x1160x1160,1080x1080x3000,1200x1200x1200,1240x1240x2000,1400x1400x1400,1096x1776x456,1224x816x472"
# and three of step 29's band with K > 3072 whose rules give step 16, so that step 29 runs in its place
shapes="$shapes 1536x1024x4096,1984x744x5592,2160x584x4648"
# and seven of the band with K > 3072 whose rules give Stream-K: with both operands on lines and K
# up to 6656, step 29 in its place (1152 x 1152 x 4096, 1088 x 1088 x 6144, 1600 x 728 x 5696,
# 1152 x 1152 x 6656); not beyond (1152 x 1152 x 6720, 1152 x 904 x 9216), nor with A off lines
# (936 x 1120 x 5696); and two with sizes of five digits (1344 x 1152 x 16384, 12288^3)
shapes="$shapes 1152x1152x4096,1088x1088x6144,1600x728x5696,1152x1152x6656,1152x1152x6720,1152x904x9216,936x1120x5696"
shapes="$shapes 1344x1152x16384,12288x12288x12288"
# and four of the band with K > 3072 for step 29 in pairs that share A (tiles along n even): in place
# of step 15 (2048 x 1024 x 8192 in (128,128) tiles, 1216 x 896 x 7104 in (128,96) ones); not in place
# of step 27 (1464 x 752 x 3896, B off lines), nor with 13 tiles along n (1088 x 1216 x 10240: step 22)
shapes="$shapes 2048x1024x8192,1216x896x7104,1464x752x3896,1088x1216x10240"
# and three where step 17 would run whole (128,256) tiles on lines: step 23's clusters, which share A,
# at 4096 x 4096 x 8192 (K > 4096, the pairs as many waves of 66 clusters as the tiles of 132 SMs),
# not at 2048 x 8448 x 10752 (272 pairs take 5 waves, 528 tiles 4), nor at 4096^3 (K = 4096)
shapes="$shapes 4096x4096x8192,2048x8448x10752,4096x4096x4096"
# and six where C is 65 to 128 columns wide and has more (128,128) tiles than SMs: step 30's (256,bn)
# tiles (32768 x 128 x 8192, 65536 x 100 x 4096, where 128 and 256 rows tie on the busiest SM, and
# 33784 x 120 x 4104, both operands inside sectors), step 26's (192,bn) ones (43264 x 68 x 7488 and,
# at the band's edge, 16904 x 96 x 2048), step 29's (128,128) ones with no copies though both
# operands lie inside sectors (77704 x 111 x 10040)
shapes="$shapes 32768x128x8192,65536x100x4096,33784x120x4104,43264x68x7488,16904x96x2048,77704x111x10040"
# and five of step 19 for its pairs: sharing A (1024 x 1024 x 4096, 8 tile columns), sharing B
# (1448 x 325 x 2248 and 250 x 600 x 20000: 3 and 5 tile columns, 12 and 2 rows, B off lines, the
# owner's fix-up and the shared one), alone (952 x 557 x 22912: B on lines; 600 x 520 x 7700: 5 x 5)
shapes="$shapes 1024x1024x4096,1448x325x2248,250x600x20000,952x557x22912,600x520x7700"
bad=0
for list in $shapes; do
	CUDA_VISIBLE_DEVICES= "$bin" --route "$list" --sms 132 >>"$tmp/route" 2>&1 || bad=$((bad + 1))
done
awk '
	function fail(why) { if (failed != NR) print "# " why ": " line; failed = NR }
	# Stream-K over T tiles of k k tiles (each pk k + pt) on c CTAs, and the CTAs it takes of P
	# workers: where the tiles fit p >= 2 times, p T (every tile in p parts) if that estimate is lower
	function exact(T, c) { return c > T && c % T == 0 && c / T <= 4 }
	function sk_on(T, k, c, pk, pt,   parts) { parts = int((c + T - 1) / T)
		return T * (pk * k + pt) / c + 24 - (exact(T, c) ? 10 : 0) + (parts > 2 ? 2 * (parts - 2) : 0) }
	function sk_ctas(T, k, P, pk, pt,   c, p) { c = T * k < P ? T * k : P; p = int(c / T)
		if (p < 2 || p > 4 || p * T == c) return c
		return sk_on(T, k, p * T, pk, pt) < sk_on(T, k, c, pk, pt) ? p * T : c }
	function sk(T, k, P, pk, pt) { return sk_on(T, k, sk_ctas(T, k, P, pk, pt), pk, pt) }
	/^route padded: / { padded = $0; next }
	/^route: / { line = $0; r = $0   # sizes of five digits run into the next field: respace them
		sub(/^route: *[0-9]+x *[0-9]+x *[0-9]+/, "", r); split($0, d, /x */); sub(/^route: */, "", d[1])
		M = d[1] + 0; N = d[2] + 0; K = d[3] + 0; $0 = "route: " M "x " N "x " K r
		pad = padded != ""; if (pad) line = padded " / " line; padded = ""
		s = $9 + 0; w = $12 + 0; t = $15 + 0; x = $18 + 0; y = $21 + 0; ps = $24 + 0; pw = $26 + 0; step = $29 + 0
		split($19, b, /[(,)]/)
		U = int((M + 127) / 128) * int((N + 127) / 128); k = int((K + 63) / 64)
		thin = M <= 2 || N <= 2 || K <= 2 || (K <= 8 && M * N * (1 + 0.36 * K) <= 4194304)
		if ((step == 28) != thin) fail("step 28 against its rule (a side of C or K at most 2, or K at most 8 and C small)")
		if (thin) next
		if (K < 128 && (M % 8 || K % 8)) { q = M * N * K < 1048576 ? 8 : 9
			if (step != q) fail("K < 128, an unaligned operand: step " step ", not " q); next }
		if (step == 8 || step == 9) fail("step " step " with aligned operands")
		narrow = (M < N ? M : N) <= 64
		if ((step == 25) != narrow) fail("step 25 against its rule (C 64 rows or columns or fewer)")
		if (narrow) next
		if (N <= 128 && U > 132) {   # C 65 to 128 columns, more (128,128) tiles than SMs: by the rows on the busiest SM
			r256 = int((int((M + 255) / 256) + 131) / 132) * 256; r192 = int((int((M + 191) / 192) + 131) / 132) * 192
			r128 = int((U + 131) / 132) * 128; q = r256 <= r192 && r256 <= r128 ? 30 : r192 <= r128 ? 26 : 29
			if (step != q) fail("a tall C of " N " columns: step " step ", not " q " (rows on the busiest SM)")
			if (step == 30 && $0 !~ ("of \\(256," (N <= 96 ? 96 : 128) "\\) tiles, a tile a CTA$")) fail("step 30 not named with its tiles")
			if (pad) fail("padded copies for a tall C"); next }
		if (step == 30) fail("step 30 outside its rule")
		V = int((int((M + 63) / 64) + 1) / 2) * 2 * int((N + 127) / 128)
		sector = M % 16 == 8 && K % 16 == 8   # lda = M, ldb = K
		band29 = U <= 132 && V > 132   # (128,128) tiles fit at once, step 20 CTAs do not
		bn29 = int((M + 127) / 128) * int((N + 95) / 96) <= 132 ? 96 : 128
		if (step == 29 && $0 !~ ("one wave of \\(128," bn29 "\\) tiles")) fail("step 29 not named with (128," bn29 ") tiles")
		pairs29 = band29 && K > 3072 && int((N + bn29 - 1) / bn29) % 2 == 0   # step 29 in pairs that share A
		if (step == 29 && ($0 ~ /in pairs that share A$/) != pairs29) fail("step 29 in pairs against its rule")
		if (band29 && K <= 3072) {
			if (step != 29)
				fail("step 29 against its rule ((128,128) tiles in one wave, step 20 CTAs too many, K at most 3072)")
			if (pad != (sector && K >= 1024)) fail("padded copies against their rule for step 29"); next }
		if (step == 29 && !band29) fail("step 29 outside its band")
		if (band29 && (step == 16 || step == 26)) fail("step " step " where step 29 takes its place")
		lines29 = band29 && K <= 6656 && ((M % 64 == 0 && K % 64 == 0) || pad)   # both operands on lines
		if (lines29 && (step == 15 || step == 22)) fail("step " step " where step 29 takes its place (on lines, K <= 6656)")
		if (pairs29 && step == 15) fail("step 15 where step 29 in pairs takes its place")
		was29 = step == 29
		if (step == 29) step = 16   # in place of step 16 or 26 (or, on lines, of Stream-K: below)
		T = int((M + 127) / 128) * int((N + 255) / 256)
		big = step == 21 || step == 22 || step == 24; many = T >= 3 * 132
		offB = K % 8 == 0 && K % 64 != 0; offA = M % 8 == 0 && M % 64 != 0
		if (pad && !(sector && U <= 132)) fail("padded copies against their rule")
		if (!pad && sector && step == 16) fail("step 16 with both operands inside sectors, not padded")
		if (pad) offA = offB = 0   # the copies lie on lines
		e96 = int((int((M + 191) / 192) * int((N + 95) / 96) + 131) / 132) * 0.65 * k + 2
		e128 = int((int((M + 191) / 192) * int((N + 127) / 128) + 131) / 132) * 0.8 * k + 2
		bn = e96 <= e128 ? 96 : 128; e = bn == 96 ? e96 : e128
		if (b[3] + 0 != bn || y < e - 0.051 || y > e + 0.051) fail("step 26 estimate " $19 " " y ", not (192," bn ") " e)
		route256 = !(t < s && t < w) && (s < w || U > 132)   # the route would run step 12 or 15
		wave = !many && !offA && !offB && V > 132 && (int((M + 191) / 192) * int((N + bn - 1) / bn) <= 132 || route256) &&
			y < s && y < w && y < t && y < x
		long = K >= (t < s && t < w ? 4096 : 8192) && T >= 8 * 132 && 0.97 * w < s
		nP = int((int((M + 191) / 192) * int((N + 127) / 128) + 131) / 132) * (0.74 * k + 3.3)
		rP = s < w ? s : int((T + 131) / 132) * (k + 2)   # step 15 or 17
		persist = many && !offA && !offB && !(t < s && t < w) && !long && bn == 128 && nP < 0.98 * rP
		if (was29 && (wave || persist)) next   # step 29 in place of step 26
		if ((step == 26) != (wave || persist))
			fail("step 26 against its rules ((192," bn ") tiles in one wave or in place of (128,256) ones, " \
				"the lowest estimate; persistent (192,128) tiles)")
		if (step == 26) next
		T192 = int((M + 191) / 192) * int((N + 191) / 192)
		e = sk(T, k, 132, 1, 0); if (s < e - 0.051 || s > e + 0.051) fail("Stream-K estimate " s ", not " e)
		e = sk(T192, k, 132, 1.01, 6); if (x < e - 0.051 || x > e + 0.051) fail("Stream-K (192,192) estimate " x ", not " e)
		P = int((M + 255) / 256) * int((N + 255) / 256)
		split22 = !many && !offB && exact(T192, sk_ctas(T192, k, 132, 1.01, 6)) && x < s && x < w && !(t < s && t < w)
		if (was29 && (lines29 || pairs29)) {   # the step the rules give under step 29: 15 or 16 (26 above),
			step = split22 || (t < s && t < w && x < t) ? 22 : t < s && t < w ? 21 : s < w ? 15 : 16   # 22 on lines
			if (step == 21 || (step == 22 && !lines29)) fail("step 29 in place of step " step)
			big = step == 22 }
		if (!was29 && (step == 15 || step == 22 || step == 27)) {   # an exact split is named, with its parts and CTAs
			TT = step == 15 ? T : step == 22 ? T192 : P; WW = step == 27 ? 66 : 132
			cc = step == 22 ? sk_ctas(TT, k, WW, 1.01, 6) : sk_ctas(TT, k, WW, 1, 0)
			want = exact(TT, cc) ? "every " (step == 27 ? "pair" : "tile") " in " cc / TT " parts on " cc " " (step == 27 ? "clusters" : "CTAs") : ""
			got = match($0, /every (tile|pair) in [0-9]+ parts on [0-9]+ (CTAs|clusters)$/) ? substr($0, RSTART) : ""
			if (got != want) fail("the exact split named \"" got "\", not \"" want "\"") }
		if (split22) { if (step != 22) fail("step 22 against its exact split rule"); next }
		e = sk(P, k, 66, 1, 0); pf = int((P + 65) / 66) * k
		if (ps < e - 0.051 || ps > e + 0.051 || pw != pf) fail("pairs estimates " ps ", " pw ", not " e ", " pf)
		pay = ps < 0.97 * pw
		few27 = !many && offB && int((M + 127) / 128) >= 2 && !(t < s && t < w) && (s < w || U > 132) && pay
		if ((step == 27) != ((many && offB && pay) || few27)) fail("step 27 against its rule")
		if (step == 27) next
		one = !many && !(t < s && t < w) && !(s < w) && U > 132 && int((M + 127) / 128) >= 2
		one192 = !many && t < s && t < w && !(x < t) && int((M + 191) / 192) >= 2
		few15 = !many && !(t < s && t < w) && s < w && int((M + 127) / 128) >= 2 && K >= 4608 &&
			T >= 0.6 * int((T + 131) / 132) * 132
		if ((step == 14) != ((many && ((offB && !pay) || (!offB && !offA && long))) || ((one || few15) && offB) ||
			(one && !offB && T > 132)))
			fail("step 14 clusters against their rule")
		if ((step == 24) != (one192 && offB)) fail("step 24 clusters against their rule")
		on17 = many && !offA && !offB && !(t < s && t < w) && !(s < w) && !long && !persist
		share = on17 && K > 4096 && int((int((M + 127) / 128) * int((int((N + 255) / 256) + 1) / 2) + 65) / 66) == int((T + 131) / 132)
		if ((step == 23) != ((many && !offB && offA && 0.95 * w < s) || share)) fail("step 23 clusters against their rule")
		if (step == 14 || step == 23) next
		if (big != (t < s && t < w)) fail("(192,192) tiles chosen against the estimates")
		if (big && (step == 22) != (x < t)) fail("Stream-K over (192,192) tiles chosen against its estimate")
		if (!big && (step == 15) != (s < w)) fail("Stream-K chosen against its estimates")
		if ((step == 16 || step == 19) && U > 132) fail("step " step " with " U " (128,128) tiles")
		if (step == 20 && V > 132) fail("step 20 with " V " CTAs of (64,128) tiles")
		if (step == 19) { pr = int((N + 127) / 128) % 2 == 0 ? "A" : int((M + 127) / 128) % 2 == 0 && K % 8 == 0 && K % 64 ? "B" : ""
			if (pr != "" && $0 !~ (", in pairs that share " pr "$") || pr == "" && $0 ~ /in pairs/) fail("step 19 pairs, not " pr)
			sub(/, in pairs that share [AB]$/, "")
			match($0, /in [0-9]+ parts, [^,]*$/); split(substr($0, RSTART + 3), f, " "); p = f[1] + 0
			if (p < 2 || p > 64 || U * p > 132 || k < 4 * p) fail(p " parts of " k " k tiles for " U " tiles")
			most = int(132 / U); if (most > int(k / 4)) most = int(k / 4)
			if (most <= 3) q = most; else for (q = 1; 2 * q <= 64 && 2 * q <= most; q *= 2) ;
			a = most > 16 ? 16 : most; if (most > 3) while (a > 4 && int(k / a) < 24) a--
			if (most > 3 && a > q) q = a
			if (p != q) fail(p " parts, not " q)
			if ((p > 3) != ($0 ~ /a shared fix-up$/) || (p <= 3) != ($0 ~ /the owner.s fix-up$/)) fail("the fix-up of " p " parts") }
		next }
	/^route fp32:/ { line = line " / " $0; s = $4 + 0; w = $7 + 0; step = $12 + 0
		T = int((M + 127) / 128) * int((N + 255) / 256); k = int((K + 7) / 8); c = T * k < 132 ? T * k : 132
		e = 1.05 * T * k / c + 2 * int((c + T - 1) / T); p = int(132 / T)
		if (p > int(k / 4)) p = int(k / 4); if (p > 32) p = 32
		if (s < e - 0.051 || s > e + 0.051 || w != int((T + 131) / 132) * k) fail("fp32 estimates " s ", " w)
		if (p >= 2) { x = $9 + 0; e = 1.05 * int((k + p - 1) / p) + 6
			if (x < e - 0.051 || x > e + 0.051) fail("fp32 split-K estimate " x ", not " e) }
		else { x = 1e300; if ($9 != "-") fail("fp32 split-K estimated with " p " parts") }
		want = w <= s && w <= x ? 31 : 18
		if (step != want) fail("fp32: step " step " against its estimates")
		if ((step == 18 && x < s) != ($0 ~ ("split-K, each tile in " p " parts$"))) fail("fp32: split-K against its estimates") }
' "$tmp/route" >"$tmp/route-bad" || bad=$((bad + 1))   # an awk error fails the check too
bad=$((bad + $(wc -l <"$tmp/route-bad")))
if [ "$bad" -eq 0 ] && [ "$(grep -c '^route: ' "$tmp/route")" -eq 272 ] && [ "$(grep -c '^route fp32:' "$tmp/route")" -eq 272 ] &&
	[ "$(grep -c '^route padded: ' "$tmp/route")" -ge 2 ] &&
	[ "$(grep -c -- '-> step 22,' "$tmp/route")" -ge 3 ] && [ "$(grep -c -- '-> step 14,' "$tmp/route")" -ge 3 ] &&
	[ "$(grep -c -- '-> step 23,' "$tmp/route")" -ge 3 ] && [ "$(grep -c -- '-> step 24,' "$tmp/route")" -ge 3 ] &&
	[ "$(grep -c -- '-> step 25,' "$tmp/route")" -ge 3 ] && [ "$(grep -c -- '-> step 26,' "$tmp/route")" -ge 4 ] &&
	[ "$(grep -c -- '-> step 29,' "$tmp/route")" -ge 4 ] && [ "$(grep -c -- '-> step 30,' "$tmp/route")" -ge 3 ] &&
	[ "$(grep -c -- 'in pairs that share A$' "$tmp/route")" -ge 2 ] &&
	[ "$(grep -c -- '-> step 19,.*in pairs that share A$' "$tmp/route")" -ge 3 ] &&
	[ "$(grep -c -- '-> step 19,.*in pairs that share B$' "$tmp/route")" -ge 2 ] &&
	[ "$(grep -c -- '-> step 19,.*fix-up$' "$tmp/route")" -ge 2 ] &&
	[ "$(grep -c -- '-> step 27,' "$tmp/route")" -ge 10 ] && [ "$(grep -c -- '-> step 18, split-K' "$tmp/route")" -ge 10 ] &&
	[ "$(grep -c -- '-> step 18, Stream-K' "$tmp/route")" -ge 10 ]; then
	ok "07_gemm --route at 180 random shapes and 92 chosen ones: every choice follows its rules, its estimates and the split's limits"
else
	not_ok "07_gemm --route breaks its rules at $bad of 272 shapes"; head -5 "$tmp/route-bad"
fi

for args in "--sizes 0" "--sizes 12x" "--versions 99" "--shapes -1" "--bogus" "--csv" "--launch-cost=1" "--pdl 2" "--pdl" \
	"--launch-cost --csv out.csv" "--cublas-choice 12x" "--cublas-choice" "--route 99999999999x2x2" \
	"--route 1048577" "--sizes 2147483648" "--route 5," "--route -5" "--route 4x4x4x4" \
	"--route $(printf '64,%.0s' $(seq 64))65"; do
	# shellcheck disable=SC2086
	CUDA_VISIBLE_DEVICES= "$bin" $args >"$tmp/out" 2>&1; rc=$?
	if [ $rc -eq 2 ] && grep -q '^usage:' "$tmp/out"; then ok "07_gemm $args: a usage error (exit 2)"
	else not_ok "07_gemm $args: exit $rc, not a usage error"; fi
done
# the largest sides a LIST takes: the estimates stay finite and positive (no int overflows)
out=$(CUDA_VISIBLE_DEVICES= "$bin" --route 1048576,1048576x1x1,1x1048576x1048576,1x1x1048576 --sms 1 2>&1); rc=$?
if [ $rc -eq 0 ] && [ "$(printf '%s\n' "$out" | grep -c ' -> step ')" -eq 8 ] &&
	! printf '%s\n' "$out" | grep -qiE ' -[0-9]|\b(nan|inf)\b'; then
	ok "07_gemm --route at sides of 1048576: finite, positive estimates"
else
	not_ok "07_gemm --route at sides of 1048576 (exit $rc)"; printf '%s\n' "$out" | head -4 | sed 's/^/# /'
fi
# --cublas-choice asks cuBLASLt about a GPU: without one, one line that says so and exit 1
CUDA_VISIBLE_DEVICES= "$bin" --cublas-choice 4096 >"$tmp/out" 2>&1; rc=$?
if [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q 'needs a CUDA device' "$tmp/out"; then
	ok "07_gemm --cublas-choice without a GPU: one line that says it needs one (exit 1)"
else
	not_ok "07_gemm --cublas-choice without a GPU: exit $rc"; head -3 "$tmp/out"
fi
exit $FAILED
