CUDA_VISIBLE_DEVICES= $B/bin/06_scheduling
