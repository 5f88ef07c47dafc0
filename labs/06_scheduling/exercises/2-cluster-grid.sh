#!/bin/sh
# title: Compute the grid of a 2 x 2 cluster
# cluster_2x2_grid in scheduling.cu prints nothing useful yet.  A GPU of 132
# SMs runs one CTA of the kernel per SM; the kernel is launched in clusters
# of 2 x 2 CTAs on 16 x 16 tiles.  Compute max_active_clusters (it counts
# clusters, not CTAs), build the scheduler with make_sched and print
#   cluster (2,2,1) on 132 SMs, 16 x 16 tiles: A active clusters -> grid (X,Y,Z), C CTAs
. mk/checker-lib.sh
lab_build
out=$("$WORK/lab" 2>&1) || not_solved "the lab exits with a failure"
line=$(printf '%s\n' "$out" | grep '^cluster (2,2,1) on 132 SMs' | head -n 1)
[ -n "$line" ] || not_solved "the lab does not print the 2 x 2 cluster's grid"
case $line in
*"not computed yet"*) not_solved "cluster_2x2_grid does not compute the grid yet" ;;
*"grid (2,2,64)"*) not_solved "grid (2,2,64) launches 256 CTAs: was 132 passed as clusters? max_active_clusters counts clusters" ;;
esac
printf '%s\n' "$line" | grep -q ': 33 active clusters -> grid (2,2,33), 132 CTAs$' ||
	not_solved "expected 33 active clusters, grid (2,2,33), 132 CTAs; the lab prints: ${line#*: }"
solved
