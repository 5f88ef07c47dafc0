# The calculator on the chapter's first examples (recorded in output.txt; see mk/outputs.sh).
# Each command is shown on a line starting with "$ ", followed by what it printed.
show() {
	printf '$ layout'
	for a in "$@"; do case $a in --*) printf ' %s' "$a" ;; *) printf " '%s'" "$a" ;; esac; done
	printf '\n'; "$LAYOUT" "$@"
}
show '(4,6):(6,_1)' 'size((4,6):(6,_1))' 'crd2idx((4,6):(6,_1), (2,3))'
show 'zipped_divide((4,6):(6,_1), (_2,_2))' 'local_tile((4,6):(6,_1), (_2,_2), (1,1))'
show 'complement(_4:_2, _24)'
show --grid 'zipped_divide((4,6):(6,_1), (_2,_2))'
# an error: the same line on standard output (in place of a result) and on standard error
echo "$ layout 'size(_4:_1)' 'size((4,6):(6,_1)' 2>/dev/null"
"$LAYOUT" 'size(_4:_1)' 'size((4,6):(6,_1)' 2>/dev/null
status=$?
echo "$ echo \$?"
echo "$status"
echo "$ layout 'size(_4:_1)' 'size((4,6):(6,_1)' >/dev/null"
"$LAYOUT" 'size(_4:_1)' 'size((4,6):(6,_1)' 2>&1 >/dev/null
