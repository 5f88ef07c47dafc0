# needs: gpu
$B/bin/07_gemm --versions 13,14 --sizes 64 --shapes 0 --schedules
