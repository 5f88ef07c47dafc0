$B/bin/03_local_partition --exercise 1
