# The book: chapters/NN_name.md -> $(BOOK)/NN_name.html (one page per
# chapter, with previous/next links), chapters/preface.md -> index.html (the
# front page and the book's contents), everything -> book.epub, and
# everything -> print.html (the whole book in one page) -> book.pdf.
#
# The filters in chapters/filters/ include code and recorded output from the
# real files, run the live examples through the calculator, and number the
# figures and references; any that cannot be resolved stops the build.

BOOK := $(B)/book
export BOOK_DIR := $(BOOK)

chapter_nn = $(firstword $(subst _, ,$(notdir $(1))))
# a chapter whose lab is a CUDA program needs nvcc (its figures may come
# from the lab); without nvcc it is left out of the book with a note
chapter_needs_nvcc = $(wildcard labs/$(call chapter_nn,$(1))_*/*.cu)

CHAPTERS_ALL := $(sort $(wildcard chapters/[0-9][0-9]_*.md))
CHAPTERS := $(if $(NVCC),$(CHAPTERS_ALL),$(foreach c,$(CHAPTERS_ALL),$(if $(call chapter_needs_nvcc,$(c)),,$(c))))
CHAPTERS_SKIPPED := $(filter-out $(CHAPTERS),$(CHAPTERS_ALL))
export BOOK_CHAPTERS := $(CHAPTERS)

PAGES := $(BOOK)/index.html $(patsubst chapters/%.md,$(BOOK)/%.html,$(CHAPTERS))

FILTERS := chapters/filters/include.lua chapters/filters/live.lua chapters/filters/book.lua
PANDOC_COMMON := --from markdown --fail-if-warnings --mathml \
	--metadata-file chapters/book.yaml $(addprefix --lua-filter ,$(FILTERS))
PANDOC_HTML := $(PANDOC_COMMON) --to html5 --standalone --template chapters/template.html \
	--section-divs --toc --toc-depth=3

# what every page depends on: the build of the book and the calculator
BOOK_INPUTS := $(FILTERS) chapters/book.yaml chapters/template.html chapters/head.html $(CHAPTERS) chapters/preface.md \
	$(LAYOUT) $(BOOK)/book.css

# the files a chapter includes (include="..." and include-output="..."): a
# changed one rebuilds the page, a missing one stops the build with its name
chapter_includes = $(sort $(shell grep -oE 'include(-output)?="[^"]*"' $(1) | sed 's/^[^"]*"//; s/"$$//'))

# the figures a chapter shows: every figures/NAME.svg that it names
chapter_figures = $(addprefix $(BOOK)/,$(sort $(shell grep -o 'figures/[A-Za-z0-9_./-]*\.svg' $(1))))

include figures/figures.mk

# the calculator in the pages (web/): every HTML page loads calc.js and layout-wasm.js, the
# calculator compiled to WebAssembly by web/build.sh (which installs the toolchain, or makes a
# stand-in, with a note, that leaves the pages as they are); calculator.html is the calculator alone
WEB := $(BOOK)/layout-wasm.js $(BOOK)/calc.js $(BOOK)/calculator.html
$(BOOK)/layout-wasm.js: web/build.sh web/calc_wasm.c $(LIB_SRC) $(LIB_HDR) $(CALC_LIB) $(CALC_HDR) figures/layout_grid.gp
	@mkdir -p $(@D)
	$(call say,wasm,$@)
	$(Q)web/build.sh $@

$(BOOK)/calc.js $(BOOK)/calculator.html: $(BOOK)/%: web/%
	@mkdir -p $(@D)
	$(Q)cp $< $@

.PHONY: book book-tools
book: $(PAGES) $(BOOK)/book.epub $(BOOK)/book.pdf $(WEB)
	@$(if $(CHAPTERS_SKIPPED),echo "note: nvcc not found: the book leaves out $(notdir $(CHAPTERS_SKIPPED))")

# pandoc and gnuplot, installed when missing (mk/need-tools.sh)
book-tools:
	@$(NEED) $(PANDOC)=pandoc $(GNUPLOT)=gnuplot-nox

$(BOOK)/book.css $(BOOK)/print.css: $(BOOK)/%.css: chapters/%.css
	@mkdir -p $(@D)
	$(Q)cp $< $@

$(BOOK)/index.html: chapters/preface.md $(BOOK_INPUTS) | book-tools
	@mkdir -p $(@D)
	$(call say,pandoc,$@)
	$(Q)$(PANDOC) $(PANDOC_HTML) -o $@ $<

define chapter_rule
$(BOOK)/$(notdir $(1:.md=.html)): $(1) $(BOOK_INPUTS) $(call chapter_figures,$(1)) $(call chapter_includes,$(1)) | book-tools
	@mkdir -p $$(@D)
	$$(call say,pandoc,$$@)
	$$(Q)$$(PANDOC) $$(PANDOC_HTML) --number-sections --number-offset=$$$$(( $$(patsubst 0%,%,$(call chapter_nn,$(1))) - 1 )) -o $$@ $(1)
endef
$(foreach c,$(CHAPTERS),$(eval $(call chapter_rule,$(c))))

# every chapter's figures and included files: what the whole book (book.epub, print.html) shows
BOOK_ALL_SHOWN := $(foreach c,$(CHAPTERS),$(call chapter_figures,$(c)) $(call chapter_includes,$(c)))

$(BOOK)/book.epub: chapters/preface.md $(BOOK_INPUTS) $(BOOK_ALL_SHOWN) | book-tools
	@mkdir -p $(@D)
	$(call say,pandoc,$@)
	$(Q)$(PANDOC) $(PANDOC_COMMON) --to epub3 --toc --toc-depth=2 --number-sections \
		--epub-chapter-level=1 --css chapters/book.css --resource-path=.:$(BOOK) \
		-o $@ chapters/preface.md $(CHAPTERS)

# the whole book in one page, for print: a title page, the contents, the front page's text and
# every chapter (chapters/print.html; book.lua numbers it as the pages are numbered). It waits
# for the pages, so that a chapter's failure is reported by the chapter's own rule.
$(BOOK)/print.html: chapters/print.html chapters/preface.md $(filter-out chapters/template.html,$(BOOK_INPUTS)) \
		$(BOOK_ALL_SHOWN) | $(PAGES) book-tools
	@mkdir -p $(@D)
	$(call say,pandoc,$@)
	$(Q)$(PANDOC) $(PANDOC_COMMON) --to html5 --standalone --template chapters/print.html --section-divs \
		-M book-print=true -o $@ chapters/preface.md $(CHAPTERS)

# book.pdf: print.html printed by headless Chromium (mk/print-pdf.js), with the contents' page
# numbers. Chromium and node are installed when missing (as root with apt); where they cannot
# be, the book is built without book.pdf and one note says so (make test requires it).
CHROMIUM ?= chromium
export CHROMIUM
have_chromium = command -v $(CHROMIUM) >/dev/null 2>&1 && command -v node >/dev/null 2>&1
$(BOOK)/book.pdf: $(BOOK)/print.html $(BOOK)/book.css $(BOOK)/print.css mk/print-pdf.js mk/cdp.js
	$(Q)if $(have_chromium) || { mk/apt-install.sh chromium nodejs; $(have_chromium); }; then \
		$(if $(Q),echo '  chromium	$@' &&) node mk/print-pdf.js $< $@; \
	else \
		echo "note: no chromium or node (Debian packages chromium nodejs): the book is built without $@"; \
	fi
