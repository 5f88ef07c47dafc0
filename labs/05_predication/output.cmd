CUDA_VISIBLE_DEVICES= $B/bin/05_predication
