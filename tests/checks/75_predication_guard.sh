#!/usr/bin/env bash
# Lab 05's verification catches a missing predicate by itself: the lab built
# with -DDROP_PREDICATE_N (the n predicate taken away, a switch the lab keeps
# for exactly this test) must exit 1 and name the guard band -- in its host
# run of the kernel's thread code (needs nvcc) and, on a machine with a GPU,
# in the device check. Also -DDROP_PREDICATE_M on the GPU.
cd "$(dirname "$0")/../.." && . tests/book/lib.sh
nvcc=$(make --no-print-directory -s -f Makefile -f - print-nvcc <<'MK'
print-nvcc: ; @echo '$(NVCC)'
MK
)
lab=labs/05_predication/predication.cu
if [ -z "$nvcc" ]; then
	ok "lab 05 without its n predicate fails # SKIP nvcc not found"; exit 0
fi
make --no-print-directory -s "$B/lib/liblayout.a" >/dev/null || { not_ok "the library does not build"; exit 1; }
flags=$(make --no-print-directory -s -f Makefile -f - print-flags <<'MK'
print-flags: ; @echo '$(NVCCFLAGS)'
MK
)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
gpu=0
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && gpu=1
for what in N M; do
	if ! "$nvcc" $flags -DDROP_PREDICATE_$what -o "$tmp/drop$what" "$lab" "$B/lib/liblayout.a" 2>"$tmp/err"; then
		not_ok "lab 05 with -DDROP_PREDICATE_$what does not compile"; sed 's/^/# /' "$tmp/err" | head -n 5; continue
	fi
	out=$("$tmp/drop$what" --check-only 2>&1); rc=$?
	if [ "$what" = N ]; then
		if [ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q '^FAIL guard band (copy_scale host run'; then
			ok "lab 05 without its n predicate: the host run fails, naming the guard band"
		else
			not_ok "lab 05 without its n predicate: the host run does not catch it (status $rc)"
			printf '%s\n' "$out" | grep -E 'PASS|FAIL' | head -n 5 | sed 's/^/# /'
		fi
	fi
	if [ $gpu -eq 0 ]; then
		ok "lab 05 without its ${what,,} predicate fails on the device, naming the guard band # SKIP needs a CUDA device"
	elif [ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q '^FAIL guard band (copy_scale_predicated'; then
		ok "lab 05 without its ${what,,} predicate fails on the device, naming the guard band"
	else
		not_ok "lab 05 without its ${what,,} predicate: the device check does not catch it (status $rc)"
		printf '%s\n' "$out" | grep -E 'PASS|FAIL' | head -n 5 | sed 's/^/# /'
	fi
done
exit $FAILED
