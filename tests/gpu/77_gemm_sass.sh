#!/usr/bin/env bash
# make test-gpu: the Hopper steps of lab 07 (11-17, 19-22, 25, 26, 29 at both its widths, alone and in pairs, 30 at both
# its widths; steps 23, 24 and 27 run the kernels of steps 14, 21 and 15) are built for sm_90a and their SASS
# multiplies with HGMMA (warpgroup MMAs), not HMMA, and holds no GPU-wide fence (MEMBAR.ALL.GPU); the
# best path's kernels wait for the launch ahead before they touch global memory (PDL); no kernel of
# the lab touches local memory (LDL/STL); step 28's kernels, on the CUDA cores, are in the PDL check;
# step 31's fp32 k loop (in steps 31 and 18) copies by cp.async, spread between its FMAs. (compute-sanitizer runs on the persistent steps with the
# other sanitizer runs, tests/gpu/10_labs.sh, from labs/07_gemm/sanitizer-args.)
cd "$(dirname "$0")/../.." && . tests/book/lib.sh
bin=$B/bin/07_gemm
[ -x "$bin" ] || { ok "lab 07 not built # SKIP"; exit 0; }
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
sass=$("$cuobjdump" --dump-sass "$bin" 2>&1) || { not_ok "cuobjdump --dump-sass $bin failed"; exit 1; }
# one function's SASS for the sm_90a cubin: from its "Function :" line to the next; the kernel by its
# mangled name, _Z, its length, itself (so k29_one_wave is not also k29_one_wave_128's prefix)
fn_sass() { printf '%s\n' "$sass" | awk -v f="$1" '/arch = sm_/ { a = ($0 ~ /sm_90a/) }
	/Function :/ { on = a && index($0, "Function : _Z" length(f) f) > 0 } on'; }
for k in k11_tma_wgmma k12_warp_specialized k13_persistent k14_cluster_multicast k15_stream_k k16_pingpong k17_tma_store \
	k19_split_k k20_small_tiles k21_tile_192 k22_stream_k_192 k25_rows k25_swapped k26_tile_192x128 \
	k26_tile_192x96 k29_one_wave k29_one_wave_128 k29_pairs k29_pairs_128 k30_tall k30_tall_96; do
	s=$(fn_sass "$k")
	[ -n "$s" ] || { not_ok "$k: no sm_90a SASS in $bin"; continue; }
	n=$(printf '%s\n' "$s" | grep -c 'HGMMA')
	h=$(printf '%s\n' "$s" | grep -c 'HMMA')
	if [ "$n" -gt 0 ] && [ "$h" -eq 0 ]; then ok "$k: $n HGMMA instructions, no HMMA (sm_90a)"
	else not_ok "$k: $n HGMMA, $h HMMA"; fi
	# a release at cluster scope on an mbarrier arrive costs a GPU-wide fence per arrive (step 14's story)
	# (between its first and last HGMMA: the main loop; the cluster barriers at the start and the end may fence)
	g=$(printf '%s\n' "$s" | awk '/HGMMA/ { if (!first) first = NR; last = NR } { line[NR] = $0 }
		END { n = 0; for (i = first; i <= last; i++) if (line[i] ~ /MEMBAR\.ALL\.GPU/) n++; print n }')
	[ "$g" -eq 0 ] && ok "$k: no MEMBAR.ALL.GPU in the main loop" || not_ok "$k: $g MEMBAR.ALL.GPU in the main loop (a fenced arrive?)"
done
# PDL (programmatic dependent launch): the best paths' kernels wait for the launch ahead
# (griddepcontrol.wait, ACQBULK) before their first global load, store, cp.async or TMA copy in the
# listing, and release the next launch (griddepcontrol.launch_dependents, PREEXIT)
for k in k12_warp_specialized k14_cluster_multicast k15_stream_k k16_pingpong k17_tma_store k19_split_k k20_small_tiles k21_tile_192 \
	k22_stream_k_192 k25_rows k25_swapped k26_tile_192x128 k26_tile_192x96 k28_rows k28_rows_direct k28_cols \
	k28_outer k29_one_wave k29_one_wave_128 k29_pairs k29_pairs_128 k30_tall k30_tall_96 \
	k18_fp32_stream_k k18_fp32_stream_k_a4 k18_split k18_split_a4 k18_split_few k18_split_few_a4; do
	r=$(fn_sass "$k" | awk '/ACQBULK/ && !w { w = NR } /PREEXIT/ { p = 1 }
		/[^A-Z](LDG|LDGSTS|STG|ATOMG|RED|UTMALDG|UTMASTG|UBLKCP|LD|ST)(\.| )/ && !g { g = NR }
		END { print (w > 0 && (g == 0 || w < g) && p) ? "ok" : "wait " w ", first global access " g ", release " p }')
	[ "$r" = ok ] && ok "$k: waits for the launch ahead (ACQBULK) before touching global memory, and releases the next (PREEXIT)" \
		|| not_ok "$k: PDL: $r"
done
# step 31's k loop (steps 31 and 18, both alignments of A): the k tiles reach shared memory by cp.async
# (LDGSTS) alone, no store from registers (STS), and the copies are spread between the FMAs: each copy
# issued after the first FMA has an FMA among the 16 instructions before it (step 10's loads come as
# one block of about a hundred instructions)
for k in k31_fp32_cp_async k31_fp32_cp_async_a4 k18_fp32_stream_k k18_fp32_stream_k_a4 k18_split k18_split_a4 \
	k18_split_few k18_split_few_a4; do
	s=$(fn_sass "$k")
	[ -n "$s" ] || { not_ok "$k: no sm_90a SASS in $bin"; continue; }
	r=$(printf '%s\n' "$s" | awk '/^ *\/\*[0-9a-f]+\*\// { n++; op[n] = $0 }
		END { for (i = 1; i <= n; i++) {
			if (op[i] ~ /[^A-Z]FFMA /) { f++; last = i }
			if (op[i] ~ /[^A-Z]STS(\.| )/) sts++
			if (op[i] ~ /[^A-Z]LDGSTS/ && f) { c++; if (i - last > 16) bad++ } }
		print c + 0, bad + 0, sts + 0 }')
	set -- $r
	[ "$1" -ge 8 ] && [ "$2" -eq 0 ] && [ "$3" -eq 0 ] && ok "$k: $1 cp.async copies after the first FMA, each within 16 instructions of an FMA; no STS" \
		|| not_ok "$k: $1 copies after the first FMA, $2 of them more than 16 instructions from one, $3 STS"
done
l=$(printf '%s\n' "$sass" | grep -cE '\b(LDL|STL)(\.|\s)')
[ "$l" -eq 0 ] && ok "no LDL/STL (local memory) in any kernel of $bin" || not_ok "$l LDL/STL instructions in $bin"
exit $FAILED
