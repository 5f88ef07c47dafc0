# Chapter 6's figures.  The predicted schedules come from lab 06's host part (--data, run at
# build time); the timeline and the times were measured on a GPU (figures/data/, first line: the
# device and the date; `make gpu-data` rewrites them).  The two layout figures, the work index of
# each tile of a 4 x 4 problem coloured by its CTA (index mod 8), are drawn by figures/06-order.gp.

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

# each layout figure: its layout (the order of the work, tile (m,n) -> work index) and title
ORDER_FIGS := raster-m swizzle-2
ORDER_EXPR_raster-m := (4,4):(1,4)
ORDER_EXPR_swizzle-2 := (4,(2,2)):(2,(1,8))
ORDER_TITLE_raster-m := raster M: (4,4):(1,4)
ORDER_TITLE_swizzle-2 := swizzle 2: (4,(2,2)):(2,(1,8))

$(ORDER_FIGS:%=$(B)/figdata/06-order-%.dat): $(B)/figdata/06-order-%.dat: $(LAYOUT) figures/06.mk
	@mkdir -p $(@D)
	$(call say,layout,$@)
	$(Q)$(LAYOUT) --plot $@ '$(ORDER_EXPR_$*)' > /dev/null

$(ORDER_FIGS:%=$(BOOK)/figures/06-order-%.svg): $(BOOK)/figures/06-order-%.svg: \
		$(B)/figdata/06-order-%.dat figures/06-order.gp | book-tools
	@mkdir -p $(@D)
	$(call say,gnuplot,$@)
	$(Q)$(GNUPLOT) -c figures/06-order.gp $< $@ '$(ORDER_TITLE_$*)'

# The Stream-K schedule of 4 x 3 tiles of 8 k tiles on 5 CTAs (lab 06 --predict-sk, the host
# algebra alone): "cta start end tile kind k_begin k_end" per unit, start and end in the CTA's own
# k tiles, kind 0 whole, 1 owner, 2 partial.
SK_ARGS := 4 3 1 1 m 8 5 auto
$(B)/figdata/06-stream-k.dat: $(B)/bin/06_scheduling figures/06.mk
	@mkdir -p $(@D)
	$(call say,predict,$@)
	$(Q)$< --predict-sk $(SK_ARGS) | awk 'BEGIN { c = -1 } $$1 == "cta" { \
		split($$9, r, /[][,)]/); b = r[2]; e = r[3]; kind = $$10 == "whole" ? 0 : $$10 == "owner:" ? 1 : 2; \
		if ($$2 + 0 != c) { c = $$2 + 0; x = 0 } print c, x, x + e - b, $$6, kind, b, e; x += e - b }' > $@.tmp
	$(Q)test -s $@.tmp && mv $@.tmp $@

$(BOOK)/figures/06-stream-k.svg: $(B)/figdata/06-stream-k.dat figures/06-stream-k.gp | book-tools
	@mkdir -p $(@D)
	$(call say,gnuplot,$@)
	$(Q)$(GNUPLOT) -c figures/06-stream-k.gp $< $@
