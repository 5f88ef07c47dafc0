# Lab 07 links cuBLAS: version 0 of the runner is the reference every kernel is checked and timed against.
07_gemm_LDLIBS := -lcublas
