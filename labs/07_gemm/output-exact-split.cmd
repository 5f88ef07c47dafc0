# Stream-K at 1536 x 1536 x 8192 on a GPU of 132 SMs: chapter 6's scheduler over the 8 x 8 (192,192)
# tiles of 128 k tiles (raster m, swizzle 1 for the picture), on all 132 CTAs and on the 128 that
# step 22's exact split takes, the first CTAs' units of each; then the best path's estimates and
# choice at four shapes where Stream-K now cuts every tile into equal parts; host only (chapter 7)
$B/bin/06_scheduling --predict-sk 8 8 1 1 m 128 132 auto | head -n 8
$B/bin/06_scheduling --predict-sk 8 8 1 1 m 128 128 auto | head -n 5
$B/bin/07_gemm --route 1536x1536x8192,1344x1152x8192,768x1536x8192,1408x1024x8192 --sms 132 | grep -v '^route fp32'
