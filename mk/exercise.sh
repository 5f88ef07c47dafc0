#!/bin/sh
# exercise.sh list                      one line per exercise: NN K title
# exercise.sh check LAB K [solution]    run the checker of exercise K of LAB
#
# A checker is labs/NN_name/exercises/K-slug.sh. It is run by sh from the
# repository root with LAB_DIR set to the directory to check: the lab itself,
# or, with "solution", a copy of the lab with labs/NN_name/solutions/K/ laid
# over it (under $B/solutions/). It exits 0 when the exercise is solved, 77
# when it cannot tell on this machine (it needs a GPU), anything else (with
# one line saying why) when it is not solved.
set -eu
B=${B:-build}

title_of() { sed -n 's/^# title: *//p' "$1" | head -n 1; }

case ${1:-} in
list)
	for c in labs/[0-9][0-9]_*/exercises/*-*.sh; do
		[ -f "$c" ] || continue
		lab=$(basename "$(dirname "$(dirname "$c")")")
		k=$(basename "$c"); k=${k%%-*}
		printf '%s %s %s\n' "${lab%%_*}" "$k" "$(title_of "$c")"
	done | sort -k1,1 -k2,2n
	;;
check)
	lab=$2 k=$3 mode=${4:-lab}
	dir=
	for d in labs/"$lab"/ labs/"$lab"_*/; do [ -d "$d" ] && { dir=${d%/}; break; }; done
	[ -n "$dir" ] || { echo "error: no lab $lab in labs/"; exit 2; }
	checker=
	for c in "$dir"/exercises/"$k"-*.sh; do [ -f "$c" ] && checker=$c; done
	[ -n "$checker" ] || { echo "error: no exercise $k in $dir/exercises/"; exit 2; }
	name=$(basename "$dir")
	if [ "$mode" = solution ]; then
		[ -d "$dir/solutions/$k" ] || { echo "error: no solution $dir/solutions/$k/"; exit 2; }
		work=$B/solutions/$name/$k
		rm -rf "$work"; mkdir -p "$work"
		cp -R "$dir"/. "$work"/
		cp -R "$dir/solutions/$k"/. "$work"/
		LAB_DIR=$work
	else
		LAB_DIR=$dir
	fi
	echo "exercise ${name%%_*} $k: $(title_of "$checker") [$LAB_DIR]"
	export LAB_DIR B
	set +e
	sh "$checker"
	rc=$?
	set -e
	case $rc in
	0) echo "PASS" ;;
	77) echo "SKIP: this checker needs a CUDA device" ;;
	*) echo "FAIL" ;;
	esac
	exit $rc
	;;
*)
	echo "usage: $0 list | check LAB K [solution]" >&2; exit 2 ;;
esac
