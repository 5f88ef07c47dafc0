# Chapter 3's figures drawn from data measured on a GPU (figures/data/,
# `make gpu-data` rewrites it on a machine with a CUDA device).

$(BOOK)/figures/03-owners.svg: figures/data/03_owners.dat figures/03-owners.gp | book-tools
	@mkdir -p $(@D)
	$(call say,gnuplot,$@)
	$(Q)$(GNUPLOT) -c figures/03-owners.gp $< $@

$(BOOK)/figures/03-bandwidth.svg: figures/data/03_bandwidth.dat figures/03-bandwidth.gp | book-tools
	@mkdir -p $(@D)
	$(call say,gnuplot,$@)
	$(Q)$(GNUPLOT) -c figures/03-bandwidth.gp $< $@
