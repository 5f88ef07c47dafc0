#!/bin/sh
# exercise.sh list                      one line per exercise: NN K title
# exercise.sh check LAB K [solution]    run the checker of exercise K of LAB
# exercise.sh apply LAB K DIR           DIR: a copy of the lab with solution K applied
#                                       exactly (fails if the patch needs an offset)
# exercise.sh refresh LAB K             rewrite solution K after a change to the lab
#                                       that moved its lines (git apply may shift a
#                                       hunk, never change its context)
#
# A checker is labs/NN_name/exercises/K-slug.sh. It is run by sh from the
# repository root with LAB_DIR set to the directory to check: the lab itself,
# or, with "solution", a copy of the lab (under $B/solutions/) with the
# solution applied. It exits 0 when the exercise is solved, 77 when it cannot
# tell on this machine (it needs a GPU), anything else (with one line saying
# why) when it is not solved.
#
# A solution is a unified diff against the shipped lab,
# labs/NN_name/solutions/K.patch, with paths from the repository root
# (a/labs/NN_name/FILE), so that a reader can read it, or apply it to the lab
# with `git apply labs/NN_name/solutions/K.patch` (and take it back with
# `git apply -R ...`). It must apply exactly: no fuzz, no offset; a patch
# that no longer does is an error that names it.
set -eu
B=${B:-build}

title_of() { sed -n 's/^# title: *//p' "$1" | head -n 1; }

# lab_dir_of NN: labs/NN_name (or nothing)
lab_dir_of() {
	for d in labs/"$1"/ labs/"$1"_*/; do [ -d "$d" ] && { echo "${d%/}"; return; }; done
}

# git_apply WORK ARGS...: git apply -p3 ARGS on the lab files in WORK (paths
# a/labs/NN_name/FILE; -p3 drops a/labs/NN_name/). Outside any repository --
# the ceiling keeps git from finding this one -- git apply patches the files
# below the current directory, like patch(1).
git_apply() {
	d=$1; shift
	(cd "$d" && GIT_CEILING_DIRECTORIES=$(cd .. && pwd) git apply -p3 "$@")
}

# copy_lab LABDIR WORK: WORK becomes a copy of the lab, without its solutions
copy_lab() { rm -rf "$2"; mkdir -p "$2"; cp -R "$1"/. "$2"/; rm -rf "$2/solutions"; }

# patch_into WORK PATCH: apply PATCH to the lab files in WORK. Fails, printing
# git's lines, when a hunk does not apply or applies only at another line (an
# offset).
patch_into() {
	out=$(git_apply "$1" -v "$2" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] || printf '%s\n' "$out" | grep -q 'offset'; then
		printf '%s\n' "$out" | grep -Ev '^(Checking patch|Applied patch)' | sed 's/^/  /'
		return 1
	fi
}

# apply_solution LABDIR K WORK [strict]: WORK becomes a copy of the lab with
# its solution K applied. The solution is made for the lab as shipped: when
# the lab has been changed where the solution changes it (an exercise under
# way), it is applied to the lab as last committed (git), saying so; with
# "strict" (make test), it must apply to the lab as it is, exactly.
apply_solution() {
	patch=$(pwd)/$1/solutions/$2.patch
	[ -f "$patch" ] || { echo "error: no solution $1/solutions/$2.patch"; exit 2; }
	command -v git >/dev/null 2>&1 || { echo "error: applying a solution needs git (Debian package git)"; exit 2; }
	copy_lab "$1" "$3"
	patch_into "$3" "$patch" >"$3.log" && { rm -f "$3.log"; return 0; }
	if [ "${4:-}" != strict ] && git rev-parse --verify -q HEAD >/dev/null 2>&1 &&
	   [ -n "$(git ls-tree HEAD "$1/")" ]; then
		rm -rf "$3"; mkdir -p "$3"
		git archive HEAD "$1" | tar -x -C "$3" --strip-components=2
		rm -rf "$3/solutions"
		if patch_into "$3" "$patch" >"$3.log"; then
			echo "note: $1 has changed where solution $2 changes it: checking the solution against the lab as last committed"
			rm -f "$3.log"; return 0
		fi
	fi
	echo "error: $1/solutions/$2.patch does not apply exactly to $1:"
	cat "$3.log"; rm -f "$3.log"
	exit 2
}

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
	dir=$(lab_dir_of "$lab")
	[ -n "$dir" ] || { echo "error: no lab $lab in labs/"; exit 2; }
	checker=
	for c in "$dir"/exercises/"$k"-*.sh; do [ -f "$c" ] && checker=$c; done
	[ -n "$checker" ] || { echo "error: no exercise $k in $dir/exercises/"; exit 2; }
	name=$(basename "$dir")
	if [ "$mode" = solution ]; then
		work=$B/solutions/$name/$k
		apply_solution "$dir" "$k" "$work"
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
apply)
	dir=$(lab_dir_of "$2")
	[ -n "$dir" ] || { echo "error: no lab $2 in labs/"; exit 2; }
	apply_solution "$dir" "$3" "$4" strict
	;;
refresh)
	dir=$(lab_dir_of "$2")
	[ -n "$dir" ] || { echo "error: no lab $2 in labs/"; exit 2; }
	patch=$dir/solutions/$3.patch
	[ -f "$patch" ] || { echo "error: no solution $patch"; exit 2; }
	work=$B/solutions/refresh/$(basename "$dir")
	copy_lab "$dir" "$work"
	git_apply "$work" "$(pwd)/$patch" ||
		{ echo "error: $patch does not apply to $dir even with offsets: fix it by hand"; exit 2; }
	files=$(sed -n 's|^+++ b/||p' "$patch")
	: >"$work.patch"
	for f in $files; do
		rel=${f#"$dir"/}
		rc=0; diff -u --label "a/$f" --label "b/$f" "$f" "$work/$rel" >>"$work.patch" || rc=$?
		[ $rc -le 1 ] || { echo "error: diff failed on $f"; exit 2; }
	done
	if cmp -s "$work.patch" "$patch"; then echo "$patch: up to date"
	else cp "$work.patch" "$patch"; echo "rewrote $patch"; fi
	;;
*)
	echo "usage: $0 list | check LAB K [solution] | apply LAB K DIR | refresh LAB K" >&2; exit 2 ;;
esac
