# needs: gpu
$B/bin/05_predication
