# Lab 07 links cuBLAS: version 0 of the runner is the reference every kernel is checked and timed against
# (and cuBLASLt, whose heuristic --cublas-choice asks what cuBLAS runs).
07_gemm_LDLIBS := -lcublas -lcublasLt
# Steps 11-14 use wgmma and setmaxnreg, which exist only in the sm_90a target: lab 07 builds for
# sm_80 and sm_90a (an sm_90a binary runs on H100 and H200 only; the other kernels are also
# compiled alone for sm_90 by the tests).
07_gemm_NVCCFLAGS = $(subst arch=compute_90$(comma)code=sm_90,arch=compute_90a$(comma)code=sm_90a,$(NVCCFLAGS))
