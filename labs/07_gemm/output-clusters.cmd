# needs: gpu
# the best path's clusters (step 14's kernel with step 17's TMA-store epilogue, at K >= 8192 in many
# full waves): step 17's launcher against cuBLAS, step 14 itself (the same clusters, C by direct
# stores) and step 15 (Stream-K, the best path's choice at these shapes before)
$B/bin/07_gemm --sizes 8192,16384x4096x8192,8192x8192x9000 --versions 0,14,15,17 --shapes 0
