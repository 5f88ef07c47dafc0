# a padded problem: M = 600, N = 300 in 128 x 128 tiles is 5 x 3 tiles; swizzle 2 rounds N up to 4 (chapter 6)
$B/bin/06_scheduling --predict 5 3 1 1 1 2 m 8
