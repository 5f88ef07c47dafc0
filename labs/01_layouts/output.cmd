# The calculator on a first example (recorded in output.txt; see mk/outputs.sh).
"$LAYOUT" 'zipped_divide((4,6,8):(48,8,_1), (_2,_2))' 'local_tile((4,6,8):(48,8,_1), (_2,_2), (1,2))'
