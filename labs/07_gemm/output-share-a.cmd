# needs: gpu
# operands off 128-byte lines, and the clusters that share the one that is: step 17's launcher (the
# best path, which now runs step 23's clusters where A's columns lie off lines, M a multiple of 8
# but not of 64, and step 14's where B's do, K so) against cuBLAS, step 13 (whole (128,256) tiles),
# steps 22 and 21 ((192,192) tiles) and step 23 itself
$B/bin/07_gemm --sizes 8200x8192x4096,8200x8192x1024,8200x8200x8192,6000x6000x6000,9000x9000x4104 --versions 0,13,17,21,22,23 --shapes 0
