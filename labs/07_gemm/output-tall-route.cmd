# C of 65 to 128 columns and many rows on a GPU of 132 SMs: steps 30, 26 and 29 by the rows of A on
# the busiest SM; host only (chapter 7)
$B/bin/07_gemm --route 32768x128x8192,65536x100x4096,43264x68x7488,77696x111x10048 --sms 132
