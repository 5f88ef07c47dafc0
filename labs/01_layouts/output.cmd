# The calculator on the chapter's first examples (recorded in output.txt; see mk/outputs.sh).
"$LAYOUT" '(4,6):(6,_1)' 'size((4,6):(6,_1))' 'crd2idx((4,6):(6,_1), (2,3))' 'zipped_divide((4,6):(6,_1), (_2,_2))' 'local_tile((4,6):(6,_1), (_2,_2), (1,1))' 'complement(_4:_2, _24)'
"$LAYOUT" --grid 'zipped_divide((4,6):(6,_1), (_2,_2))'
# an error: one line on standard output (and the same on standard error, left out here), exit status 1
"$LAYOUT" 'composition((_4,_6):(_6,_1), _4:_6)' 2>/dev/null
echo "exit status $?"
