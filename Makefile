# The book and its labs. `make help` lists the targets.
#
#   make                 the book (build/book/index.html, book.epub, book.pdf) and every lab
#   make test            all of that, then every check in tests/checks
#
# Everything generated goes under $(B). The library's own rules live in
# mk/lib.mk; the book's in mk/book.mk; the labs' and exercises' in mk/labs.mk.

B ?= build
export B

# `make V=1` shows the full commands of the book's build
Q := $(if $(V),,@)
say = $(if $(V),,@echo '  $(1)	$(2)')

.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
.SUFFIXES:

# Tools. Missing pandoc/gnuplot are installed by mk/need-tools.sh (as root
# with apt), or the build stops with one line naming the packages.
PANDOC  ?= pandoc
GNUPLOT ?= gnuplot
NVCC    ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc))
NEED    := mk/need-tools.sh
LAYOUT  := $(B)/bin/layout
LIBLAYOUT := $(B)/lib/liblayout.a
export LAYOUT NVCC

include mk/lib.mk
include mk/labs.mk
include mk/book.mk

.PHONY: all book labs test test-gpu run exercises check bench gpu-data outputs readme-figure clean help

all: book labs

test: all
	@$(NEED) chromium=chromium node=nodejs epubcheck=epubcheck pdftotext=poppler-utils python3=python3 || echo "note: the browser check needs chromium and node, the EPUB check epubcheck, the PDF check poppler-utils, the examples-against-CuTe check python3: those checks fail"
	@tests/run

test-gpu: labs
	@tests/run tests/gpu

clean:
	rm -rf $(B)

# the picture at the top of README.md: a copy of one of the book's figures
README_FIGURE := 01-row-major-tiles
readme-figure: $(BOOK)/figures/$(README_FIGURE).svg
	cp $< figures/readme.svg

help:
	@echo 'make                  the book ($(BOOK)/index.html, book.epub, book.pdf) and every lab'
	@echo 'make book             only the book'
	@echo 'make labs             build every lab program into $(B)/bin/'
	@echo 'make run LAB=NN       build and run lab NN (ARGS="..." passes arguments)'
	@echo 'make exercises        list the exercises: NN K title'
	@echo 'make check LAB=NN EX=K  check your answer to exercise K of lab NN'
	@echo '                      (SOLUTION=1 checks the shipped solution instead)'
	@echo 'make test             build everything, then run every check (tests/run)'
	@echo 'make test-gpu         on a GPU machine: device verification and compute-sanitizer'
	@echo 'make bench            on a GPU machine: run every lab, keep its bench: lines'
	@echo 'make gpu-data         on a GPU machine: rewrite the measured figure data in figures/data/'
	@echo 'make outputs          rewrite the recorded outputs (labs/*/output*.txt)'
	@echo 'make readme-figure    refresh figures/readme.svg, the picture in README.md'
	@echo 'make clean            remove $(B)/'
