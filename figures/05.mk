# Chapter 5's other figures.  Figure 5.1 (the 41 x 55 matrix in (_4,_8) tiles) is drawn tile by
# tile by its own script: one label per tile keeps the 44 x 56 grid legible.  The other layout
# figure is in figures/05.list.

$(BOOK)/figures/05-ragged-tiling.svg: figures/05-ragged.gp | book-tools
	@mkdir -p $(@D)
	$(call say,gnuplot,$@)
	$(Q)$(GNUPLOT) -c figures/05-ragged.gp $@
