# list2mk.awk: figures/layouts.list -> make variables for figures/figures.mk.
# Each line "name | expression | colour rule | title" becomes the figure
# `name` with target-specific FIG_EXPR, FIG_COLOUR and FIG_TITLE.
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
function mk(s)   { gsub(/\$/, "$$", s); gsub(/#/, "\\#", s); return s }
BEGIN { FS = "|" }
/^[ \t]*(#|$)/ { next }
{
	name = trim($1); expr = trim($2); colour = trim($3); title = trim($4)
	if (name !~ /^[A-Za-z0-9_.-]+$/ || expr == "" || NF < 3 || NF > 4) {
		printf "figures/layouts.list:%d: expected \"name | expression | colour rule | title\"\n", NR > "/dev/stderr"
		exit 1
	}
	if ((expr colour title) ~ /'/) {
		printf "figures/layouts.list:%d: no single quotes, please\n", NR > "/dev/stderr"
		exit 1
	}
	printf "LAYOUT_FIGURES += %s\n", name
	printf "$(B)/figdata/%s.dat: FIG_EXPR := %s\n", name, mk(expr)
	printf "$(BOOK)/figures/%s.svg: FIG_COLOUR := %s\n", name, mk(colour)
	printf "$(BOOK)/figures/%s.svg: FIG_TITLE := %s\n", name, mk(title)
}
