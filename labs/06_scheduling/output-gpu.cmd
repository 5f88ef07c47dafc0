# needs: gpu
$B/bin/06_scheduling
