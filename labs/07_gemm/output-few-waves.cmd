# needs: gpu
# fewer than three waves with B's columns off 128-byte lines (K a multiple of 8 but not of 64): step 17's
# launcher (the best path, which now runs step 14's clusters where the route ran step 12's one launch
# of whole (128,256) tiles, and step 24's (192,192) tiles in clusters where it ran step 21's)
# against cuBLAS, step 12 and step 21
$B/bin/07_gemm --sizes 1000x4000x3000,2000x4000x3000,4000x3000x3000,3000x3000x3000,3000x3000x5000 --versions 0,12,21,17 --shapes 0
