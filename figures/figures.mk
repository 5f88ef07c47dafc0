# The book's figures: SVG files in $(BOOK)/figures/, drawn by gnuplot.
#
# A layout drawn as a grid of coloured cells (the figure most chapters use)
# takes one line in figures/NN.list (one list per chapter):
#
#     name | calculator expression | colour rule | title
#
# and the chapter shows it with
#
#     ![What the figure shows.](figures/name.svg){#fig:name}
#
# The calculator writes the cells (`layout --plot`) into $(B)/figdata/name.dat
# and figures/layout_grid.gp draws them: the colour rule is a gnuplot
# expression over $1 (row), $2 (column) and $3 (value) that gives each cell's
# colour group; the title may be left empty (the layout is shown).
#
# Any other figure is a gnuplot script figures/NAME.gp with a rule below that
# names its data: a lab's host data (written by `$(B)/bin/NN_name --data DIR`,
# see $(B)/figdata/NN_name/), or data measured on a GPU and kept in the
# repository under figures/data/NN_name/ (`make gpu-data` rewrites it).
# A data file that is missing stops the build with its name.

GRID_GP := figures/layout_grid.gp

# figures/NN.list -> make rules (one set per line)
LAYOUT_LISTS := $(sort $(wildcard figures/[0-9][0-9].list))
$(B)/mk/layout-figures.mk: $(LAYOUT_LISTS) figures/list2mk.awk
	@mkdir -p $(@D)
	$(Q)awk -f figures/list2mk.awk $(LAYOUT_LISTS) > $@.tmp && mv $@.tmp $@

include $(B)/mk/layout-figures.mk

$(LAYOUT_FIGURES:%=$(B)/figdata/%.dat): $(B)/figdata/%.dat: $(LAYOUT) $(LAYOUT_LISTS)
	@mkdir -p $(@D)
	$(call say,layout,$@)
	$(Q)$(LAYOUT) --plot $@ '$(FIG_EXPR)' > /dev/null

$(LAYOUT_FIGURES:%=$(BOOK)/figures/%.svg): $(BOOK)/figures/%.svg: $(B)/figdata/%.dat $(GRID_GP) | book-tools
	@mkdir -p $(@D)
	$(call say,gnuplot,$@)
	$(Q)$(GNUPLOT) -c $(GRID_GP) $< $@ '$(FIG_COLOUR)' '$(FIG_TITLE)'

# A lab's host data: one run of the lab with --data writes all its files.
$(B)/figdata/%/.written: $(B)/bin/%
	@mkdir -p $(@D)
	$< --data $(@D) > /dev/null && touch $@

# Figures drawn from a lab's data or from measured data: one rule each, e.g.
#   $(BOOK)/figures/02-copy-bandwidth.svg: figures/data/02_local_tile/bandwidth.dat figures/bandwidth.gp | book-tools
#   	@mkdir -p $(@D)
#   	$(GNUPLOT) -c figures/bandwidth.gp $< $@
#   $(B)/figdata/03_local_partition/threads.dat: $(B)/figdata/03_local_partition/.written ;

# Each chapter's other figure rules live in figures/NN.mk.
include $(wildcard figures/[0-9][0-9].mk)
