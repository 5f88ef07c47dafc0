# step 28's kernel and parts at thin shapes on a GPU of 132 SMs, and where K is small but C is not
# (4096 x 4096 x 8: the tensor cores); host only (chapter 7)
$B/bin/07_gemm --route 1x66x5000,1x3079x2399,2x37x2314,4709x1x3068,37x1x2314,300x2x30000,2049x4787x1,1000x1000x8,4096x4096x8 --sms 132
