# needs: gpu
$B/bin/03_local_partition
