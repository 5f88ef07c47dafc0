# the best path's choice at a few shapes on a GPU of 132 SMs, bf16 (step 17's launcher) and fp32
# (step 18's); host only (chapter 7)
$B/bin/07_gemm --route 1536x1536x16384,5120x5120x4096,8192x8192x1024,4096,8192,2560,1000,1024x1024x4096,3072x3072x4096,12288,1536,5000 --sms 132
