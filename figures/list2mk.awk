# list2mk.awk: figures/NN.list -> make variables for figures/figures.mk.
# Each line "name | expression | colour rule | title" becomes the figure
# `name` with target-specific FIG_EXPR, FIG_COLOUR and FIG_TITLE.
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
function mk(s)   { gsub(/\$/, "$$", s); gsub(/#/, "\\#", s); return s }
BEGIN { FS = "|" }
/^[ \t]*(#|$)/ { next }
{
	name = trim($1); expr = trim($2); colour = trim($3); title = trim($4)
	if (name !~ /^[A-Za-z0-9_.-]+$/ || expr == "" || NF < 3 || NF > 4) {
		printf "%s:%d: expected \"name | expression | colour rule | title\"\n", FILENAME, FNR > "/dev/stderr"
		exit 1
	}
	if ((expr colour title) ~ /'/) {
		printf "%s:%d: no single quotes, please\n", FILENAME, FNR > "/dev/stderr"
		exit 1
	}
	printf "LAYOUT_FIGURES += %s\n", name
	printf "$(B)/figdata/%s.dat: FIG_EXPR := %s\n", name, mk(expr)
	printf "$(BOOK)/figures/%s.svg: FIG_COLOUR := %s\n", name, mk(colour)
	printf "$(BOOK)/figures/%s.svg: FIG_TITLE := %s\n", name, mk(title)
}
