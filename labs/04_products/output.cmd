$B/bin/04_products
