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

# step 30's rule: the tile height the best path takes for C of 128 columns as M grows (K = 4096,
# 132 SMs), from what `07_gemm --route` prints (host only), 60 shapes a call: M, the step, its
# waves and its tile's rows, one line per M
TALL_M := $(shell seq 17024 512 135168)
$(B)/figdata/07-tall.dat: $(B)/bin/07_gemm figures/07.mk
	@mkdir -p $(@D)
	$(call say,07_gemm,$@)
	$(Q)printf '%s\n' $(TALL_M) | awk '{ l = l (NR % 60 == 1 ? "\n" : ",") $$1 "x128x4096" } END { print l }' | \
	  while read -r list; do [ -z "$$list" ] || CUDA_VISIBLE_DEVICES= $< --route "$$list" --sms 132 || exit 1; done | \
	  awk '/^route: / { m = $$2 + 0; match($$0, /-> step [0-9]+/); s = substr($$0, RSTART + 8, RLENGTH - 8) + 0; \
	    w = /one wave/ ? 1 : 0; if (!w && match($$0, /[0-9]+ waves/)) w = substr($$0, RSTART, RLENGTH) + 0; \
	    match($$0, /of \([0-9]+,/); bm = substr($$0, RSTART + 4, RLENGTH - 5) + 0; print m, s, w, bm, w * bm }' > $@.tmp
	$(Q)[ "$$(wc -l < $@.tmp)" -eq $(words $(TALL_M)) ] || { echo "figures/07.mk: $@: $$(wc -l < $@.tmp) route lines, not $(words $(TALL_M))"; exit 1; }
	$(Q)mv $@.tmp $@

$(BOOK)/figures/07-tall.svg: $(B)/figdata/07-tall.dat figures/07-tall.gp | book-tools
	@mkdir -p $(@D)
	$(call say,gnuplot,$@)
	$(Q)$(GNUPLOT) -c figures/07-tall.gp $< $@
