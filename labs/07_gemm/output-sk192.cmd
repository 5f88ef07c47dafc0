# needs: gpu
# step 22 (Stream-K over (192,192) tiles) against cuBLAS and step 21 (whole waves of the same tiles):
# at the first five shapes the best path now takes step 22, at the last two it keeps step 21
$B/bin/07_gemm --sizes 6144x6144x8192,6144x6144x16384,9216x9216x4096,7680x7680x8192,12288,6144x6144x4096,3072x3072x16384 --versions 0,21,22 --shapes 0
