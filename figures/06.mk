# Chapter 6's figures.  The predicted schedules come from lab 06's host part (--data, run at
# build time); the timeline and the times were measured on a GPU (figures/data/, first line: the
# device and the date; `make gpu-data` rewrites them).  The layout figures are in figures/06.list.

SEED_SCHEDULES := raster-m raster-n swizzle-2 cluster-2x1 cluster-2x1-swz-2

$(SEED_SCHEDULES:%=$(B)/figdata/06_scheduling/06_seed_%.dat): $(B)/figdata/06_scheduling/.written ;

$(SEED_SCHEDULES:%=$(BOOK)/figures/06-seed-%.svg): $(BOOK)/figures/06-seed-%.svg: \
		$(B)/figdata/06_scheduling/06_seed_%.dat figures/06-schedule.gp | book-tools
	@mkdir -p $(@D)
	$(call say,gnuplot,$@)
	$(Q)$(GNUPLOT) -c figures/06-schedule.gp $< $@

$(BOOK)/figures/06-timeline.svg: figures/data/06_timeline.dat figures/06-timeline.gp | book-tools
	@mkdir -p $(@D)
	$(call say,gnuplot,$@)
	$(Q)$(GNUPLOT) -c figures/06-timeline.gp $< $@

$(BOOK)/figures/06-schedules.svg: figures/data/06_schedules.dat figures/06-schedules.gp | book-tools
	@mkdir -p $(@D)
	$(call say,gnuplot,$@)
	$(Q)$(GNUPLOT) -c figures/06-schedules.gp $< $@
