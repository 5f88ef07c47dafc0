#!/usr/bin/env bash
# Every recorded output (labs/*/output*.txt) is still what its command
# (labs/*/output*.cmd) prints, timing and device lines aside; and the
# comparison itself catches a difference and ignores timing and device lines
# (a GPU output recorded on one Hopper card must check on another).
cd "$(dirname "$0")/../.." && . tests/book/lib.sh
mk/outputs.sh check || FAILED=1

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/labs/98_demo"
printf 'echo same\necho "bench: 1.0 ms"\necho "launch: CPU 4.0 us a call"\necho "device: NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 50 MiB L2)"\n' \
	> "$tmp/labs/98_demo/output.cmd"
printf 'same\nbench: 2.0 ms\nlaunch: CPU 3.5 us a call\ndevice: NVIDIA H200 (sm_90, 132 SMs, 60 MiB L2)\n' > "$tmp/labs/98_demo/output.txt"
here=$PWD
if (cd "$tmp" && "$here/mk/outputs.sh" check labs/98_demo/output.cmd >/dev/null); then
	ok "a recorded output that differs only in bench:, launch: and device: lines matches"
else
	not_ok "bench:, launch: or device: lines are not ignored"
fi
printf 'same\nbench: 2.0 ms\nlaunch: CPU 3.5 us a call\nlaunch cost: FAIL bf16 cublas 64x64x64\ndevice: NVIDIA H200 (sm_90, 132 SMs, 60 MiB L2)\n' \
	> "$tmp/labs/98_demo/output.txt"
if (cd "$tmp" && "$here/mk/outputs.sh" check labs/98_demo/output.cmd | grep -q '^not ok'); then
	ok "a failure line of --launch-cost is not taken for a measurement"
else
	not_ok "a 'launch cost: FAIL' line is ignored like a measurement"
fi
printf 'same\nbench: 2.0 ms\ndevice: NVIDIA H200 (sm_90, 132 SMs, 60 MiB L2)\nPASS\n' > "$tmp/labs/98_demo/output.txt"
if (cd "$tmp" && "$here/mk/outputs.sh" check labs/98_demo/output.cmd | grep -q '^not ok'); then
	ok "a recorded output with a line the program no longer prints is caught"
else
	not_ok "a missing line goes unnoticed"
fi
printf 'different\n' > "$tmp/labs/98_demo/output.txt"
if (cd "$tmp" && "$here/mk/outputs.sh" check labs/98_demo/output.cmd | grep -q '^not ok'); then
	ok "a stale recorded output is caught"
else
	not_ok "a stale recorded output goes unnoticed"
fi
exit $FAILED
