# step 27's schedule at 5000^3 on a GPU of 132 SMs, 66 clusters of 2: chapter 6's Stream-K scheduler over
# the 20 x 20 pairs of (128,256) tiles (raster m, swizzle 4), 79 k tiles each; the first cluster's walk,
# and the units of the second that end inside a pair or own one; host only (chapter 7)
$B/bin/06_scheduling --predict-sk 20 20 1 4 m 79 66 auto | awk 'NR <= 8 || /^cta 1 .*(partial|owner)/'
