# needs: gpu
# step 26's (192,128) tiles from 3 (128,256) tiles per SM on, where the route ran step 17's whole
# tiles or step 15's Stream-K: the best path (step 17's launcher) against cuBLAS and step 15, and
# step 26 at 11456 x 1920 x 1728, where the rule stops (M > 10240; chapter 7)
$B/bin/07_gemm --sizes 6656x1856x640,4032x3136x1088,8576x2944x1472,2880x5504x5376,6144x4224x4544,7360x3456x3392,11456x1920x1728 --versions 0,15,26,17 --shapes 0
