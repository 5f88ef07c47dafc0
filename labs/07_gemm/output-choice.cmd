# needs: gpu
$B/bin/07_gemm --versions 8,14 --sizes 64 --shapes 0 --choice
