#!/bin/sh
# gpu.sh bench|data LAB...   (for a machine with a CUDA device)
#   bench: runs every lab program, keeps its "bench:" lines in $B/bench/NAME.txt
#   data:  runs every lab program with --data figures/data, the measured figure
#          data that the book draws and the repository keeps (each lab names its
#          files NN_*.dat, NN its number)
set -u
B=${B:-build}
what=$1; shift
if ! { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; }; then
	echo "error: make $what needs a CUDA device (nvidia-smi -L finds none)"; exit 1
fi
[ $# -gt 0 ] || { echo "note: no CUDA lab is built (is nvcc installed?)"; exit 0; }
status=0 i=0
for lab in "$@"; do
	i=$((i + 1))
	echo "[$i/$#] $lab"
	case $what in
	bench)
		mkdir -p "$B/bench"
		"$B/bin/$lab" | tee "$B/bench/$lab.log" | grep '^bench:' | tee "$B/bench/$lab.txt" || status=1 ;;
	data)
		mkdir -p figures/data
		"$B/bin/$lab" --data figures/data || status=1 ;;
	esac
done
exit $status
