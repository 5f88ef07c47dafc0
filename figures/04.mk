# Chapter 4's figures drawn from data measured on a GPU (figures/data/,
# `make gpu-data` rewrites it on a machine with a CUDA device).

$(BOOK)/figures/04-bandwidth.svg: figures/data/04_bandwidth.dat figures/04-bandwidth.gp | book-tools
	@mkdir -p $(@D)
	$(call say,gnuplot,$@)
	$(Q)$(GNUPLOT) -c figures/04-bandwidth.gp $< $@
