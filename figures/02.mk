# Chapter 2's figures drawn from data measured on a GPU (figures/data/, first
# line: the device and the date; `make gpu-data` rewrites them).  The layout
# figures are in figures/02.list.

$(BOOK)/figures/02-owners.svg: figures/data/02_owners.dat figures/02-owners.gp | book-tools
	@mkdir -p $(@D)
	$(call say,gnuplot,$@)
	$(Q)$(GNUPLOT) -c figures/02-owners.gp $< $@

$(BOOK)/figures/02-bandwidth.svg: figures/data/02_bandwidth.dat figures/02-bandwidth.gp | book-tools
	@mkdir -p $(@D)
	$(call say,gnuplot,$@)
	$(Q)$(GNUPLOT) -c figures/02-bandwidth.gp $< $@
