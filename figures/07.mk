# Chapter 7's figures, drawn from data measured on a GPU (figures/data/gemm.csv and 07_timeline.dat,
# one row per version, size and precision, device and date in its columns;
# `make gpu-data` rewrites it on a machine with a CUDA device).

$(BOOK)/figures/07-ladder.svg: figures/data/gemm.csv figures/07-ladder.gp | book-tools
	@mkdir -p $(@D)
	$(call say,gnuplot,$@)
	$(Q)$(GNUPLOT) -c figures/07-ladder.gp $< $@

$(BOOK)/figures/07-roofline.svg: figures/data/gemm.csv figures/07-roofline.gp | book-tools
	@mkdir -p $(@D)
	$(call say,gnuplot,$@)
	$(Q)$(GNUPLOT) -c figures/07-roofline.gp $< $@

# the timelines: every unit of work's SM and times, measured (07_gemm --timeline figures/data)
$(BOOK)/figures/07-stream-k-timeline.svg: figures/data/07_timeline.dat figures/07-stream-k-timeline.gp | book-tools
	@mkdir -p $(@D)
	$(call say,gnuplot,$@)
	$(Q)$(GNUPLOT) -c figures/07-stream-k-timeline.gp $< $@

$(BOOK)/figures/07-pingpong-timeline.svg: figures/data/07_timeline.dat figures/07-pingpong-timeline.gp | book-tools
	@mkdir -p $(@D)
	$(call say,gnuplot,$@)
	$(Q)$(GNUPLOT) -c figures/07-pingpong-timeline.gp $< $@
