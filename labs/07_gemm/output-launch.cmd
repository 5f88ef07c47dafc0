# needs: gpu
$B/bin/07_gemm --launch-cost --versions 17 --sizes 512,768,1000,1024,1024x1024x4096,2048,4096,8192x8192x1024 --shapes 0
