# the Stream-K schedule of 4 x 3 tiles, 8 k tiles each, on 5 CTAs (chapter 7)
$B/bin/06_scheduling --predict-sk 4 3 1 1 m 8 5 auto
