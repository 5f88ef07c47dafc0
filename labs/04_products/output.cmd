# the host part only, the same on any machine (no device is visible)
CUDA_VISIBLE_DEVICES= $B/bin/04_products
