#!/bin/sh
# title: Give the tiled copy a (_64,_32) float4 tile, in the kernels and on the host
# The copy kernels take their tile size from TILE_M x TILE_N; the host divides
# the matrix with COPY_TILER.  Make the tile 64 x 32 float4 in both places, so
# that the host part prints
#   tile mode (_64,_32):(_1,4096) matches the kernels' tile (64,32):(1,ld)
# On a machine with a GPU the checker also runs the copies and compares every
# element.
. mk/checker-lib.sh
lab_host_run
head=$(grep '^tiled copy of' "$WORK/out" | head -n 1 | tr -s ' \t' '  ')
[ -n "$head" ] || not_solved "the lab no longer prints its 'tiled copy of ...' lines"
tm=$(printf '%s\n' "$head" | sed -n 's/.*TILE_M x TILE_N = \([0-9]*\) x \([0-9]*\): *$/\1/p')
tn=$(printf '%s\n' "$head" | sed -n 's/.*TILE_M x TILE_N = \([0-9]*\) x \([0-9]*\): *$/\2/p')
[ "$tm x $tn" = "64 x 32" ] || not_solved "the kernels' tile TILE_M x TILE_N is $tm x $tn; make it 64 x 32"
line=$(pairs "$WORK/out" | grep '^zipped_divide((4096,16384):(_1,4096),' | head -n 1)
[ -n "$line" ] || not_solved "the host part prints no 'zipped_divide((4096,16384):(_1,4096), ...)' line with its result"
expr=$(printf '%s\n' "$line" | cut -f1)
got=$(printf '%s\n' "$line" | cut -f2)
[ "$expr" = "zipped_divide((4096,16384):(_1,4096),(_64,_32))" ] ||
	not_solved "the host divides with $(printf '%s' "$expr" | sed 's/.*4096),//; s/)$//'); make COPY_TILER (_64,_32), static like the kernels' tile"
want=$(calc "$expr")
[ "$got" = "$want" ] || not_solved "$expr prints $got, but the calculator says $want"
tr -s ' \t' '  ' < "$WORK/out" | grep -q "^ *tile mode (_64,_32):(_1,4096) matches the kernels' tile" ||
	not_solved "the host part does not say 'tile mode (_64,_32):(_1,4096) matches the kernels' tile (64,32):(1,ld)'"
if have_gpu; then
	"$WORK/lab" --quick --check-only > "$WORK/gpu" 2>&1 ||
		not_solved "on the GPU: $(grep -m 1 FAIL "$WORK/gpu" || tail -n 1 "$WORK/gpu")"
fi
solved
