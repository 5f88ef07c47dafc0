# needs: gpu
$B/bin/04_products
