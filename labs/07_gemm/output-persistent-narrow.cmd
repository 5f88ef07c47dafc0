# needs: gpu
# step 26's (192,128) tiles from 3 (128,256) tiles per SM on, where the route ran step 17's whole
# tiles or step 15's Stream-K: the best path (step 17's launcher) against cuBLAS, step 15 and step
# 26's own launcher; step 26 takes its tiles along n where M > N, along m at the two shapes where
# M < N; the last three have M above 10000, where the order matters most (chapter 7)
$B/bin/07_gemm --sizes 6656x1856x640,4032x3136x1088,8576x2944x1472,2880x5504x5376,6144x4224x4544,2240x9792x1472,11456x1920x1728,13184x2624x2496,15424x1600x2176 --versions 0,15,26,17 --shapes 0
