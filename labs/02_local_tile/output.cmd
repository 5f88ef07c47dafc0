# The lab's host part: the algebra, printed the same on every machine
# (CUDA_VISIBLE_DEVICES=-1 hides any GPU, so the device part is skipped).
CUDA_VISIBLE_DEVICES=-1 "$B/bin/02_local_tile"
