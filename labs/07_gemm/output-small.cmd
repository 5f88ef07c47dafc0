# needs: gpu
$B/bin/07_gemm --launch-cost --versions 19,20 --sizes 512,768,1000,1024,1024x1024x2048,1000x1000x2000,1024x1024x4096 --shapes 0
