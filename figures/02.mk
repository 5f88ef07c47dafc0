# Chapter 2's figures drawn from data measured on a GPU (figures/data/, first
# line: the device and the date; `make gpu-data` rewrites them).  The layout
# figures are in figures/02.list; three of them are drawn again here, by
# figures/02-tile-grid.gp, with each tile labelled by its index in the rest
# mode (the number of the CTA that takes it), from the same cell data.

$(BOOK)/figures/02-owners.svg: figures/data/02_owners.dat figures/02-owners.gp | book-tools
	@mkdir -p $(@D)
	$(call say,gnuplot,$@)
	$(Q)$(GNUPLOT) -c figures/02-owners.gp $< $@

$(BOOK)/figures/02-bandwidth.svg: figures/data/02_bandwidth.dat figures/02-bandwidth.gp | book-tools
	@mkdir -p $(@D)
	$(call say,gnuplot,$@)
	$(Q)$(GNUPLOT) -c figures/02-bandwidth.gp $< $@

# The three numbered tile figures: data from 02.list, tile shape, title.
$(BOOK)/figures/02-tiles-numbered.svg: $(B)/figdata/02-tiles-by-cta.dat figures/02-tile-grid.gp | book-tools
	@mkdir -p $(@D)
	$(call say,gnuplot,$@)
	$(Q)$(GNUPLOT) -c figures/02-tile-grid.gp $< $@ 2 2 '(4,6):(6,_1) in (_2,_2) tiles: tile m + 2n at (m,n)'

$(BOOK)/figures/02-cta-grid-numbered.svg: $(B)/figdata/02-cta-grid-8x12.dat figures/02-tile-grid.gp | book-tools
	@mkdir -p $(@D)
	$(call say,gnuplot,$@)
	$(Q)$(GNUPLOT) -c figures/02-tile-grid.gp $< $@ 2 4 '(8,12):(_1,8) in (_2,_4) tiles: tile m + 4n at (m,n)'

$(BOOK)/figures/02-ragged-overhang.svg: $(B)/figdata/02-ragged-6x10.dat figures/02-tile-grid.gp | book-tools
	@mkdir -p $(@D)
	$(call say,gnuplot,$@)
	$(Q)$(GNUPLOT) -c figures/02-tile-grid.gp $< $@ 4 4 '(6,10):(_1,6) in (_4,_4) tiles, and the cells tile 5 covers' yes
