# needs: gpu
$B/bin/07_gemm --csv $B/gemm.csv --bench-shapes 30
