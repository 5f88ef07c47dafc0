# brackets.awk: prints FILE:LINE: TEXT for each "[" in a chapter's text that no "]" closes
# within its paragraph (code blocks, code spans, $math$ and escaped characters aside).
# Pandoc reads such a bracket as the start of a link and looks far ahead for its end; a
# few of them made one chapter take minutes to read. The text writes "\[" instead.
function blank(t) { gsub(/[^\n]/, " ", t); return t }
function check(   s, i, c, n, e, tick, rest, pre, nl, lines, stack) {
	if (para == "") return
	s = para
	gsub(/\\[\\`$\[\]]/, "  ", s)
	while (match(s, /`+/)) {
		tick = substr(s, RSTART, RLENGTH); rest = substr(s, RSTART + RLENGTH)
		e = index(rest, tick)
		if (e == 0) { s = substr(s, 1, RSTART - 1) blank(tick) rest; continue }
		s = substr(s, 1, RSTART - 1) blank(tick substr(rest, 1, e - 1) tick) substr(rest, e + length(tick))
	}
	while (match(s, /\$[^$]+\$/)) s = substr(s, 1, RSTART - 1) blank(substr(s, RSTART, RLENGTH)) substr(s, RSTART + RLENGTH)
	n = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "[") stack[++n] = i
		else if (c == "]" && n > 0) n--
	}
	split(para, lines, "\n")
	for (i = 1; i <= n; i++) {
		pre = substr(s, 1, stack[i]); nl = gsub(/\n/, "", pre)
		printf "%s:%d: %s\n", fname, first + nl, lines[nl + 1]
	}
}
FNR == 1 { check(); para = ""; code = 0 }
/^(```|~~~)/ { check(); para = ""; code = !code; next }
code { next }
/^[ \t]*$/ { check(); para = ""; next }
{ if (para == "") { para = $0; first = FNR; fname = FILENAME } else para = para "\n" $0 }
END { check() }
