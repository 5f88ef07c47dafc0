# mk/lib.mk -- the layout library, the calculator (lab 01) and the library's tests.
#
#   $(B)/lib/liblayout.a      the library (lib/*.c)
#   $(B)/bin/layout           the calculator (labs/01_layouts/*.c)
#   $(B)/san/...              the same built with AddressSanitizer + UndefinedBehaviorSanitizer
#   $(B)/tests/...            the library's test programs (tests/lib/*.c)
#
# Only a C11 compiler is needed: no other dependency.

B ?= build
CC ?= cc
LT_CFLAGS   := -std=c11 -O2 -Wall -Wextra -Wshadow -Werror -D_POSIX_C_SOURCE=200809L -Ilib -Ilabs/01_layouts
LT_SANFLAGS := -std=c11 -O1 -g -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -Ilib -Ilabs/01_layouts \
               -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

LIB_SRC   := $(wildcard lib/*.c)
LIB_HDR   := $(wildcard lib/*.h)
CALC_SRC  := $(wildcard labs/01_layouts/*.c)
CALC_HDR  := $(wildcard labs/01_layouts/*.h)
CALC_LIB  := labs/01_layouts/calc.c
LTEST_SRC := $(wildcard tests/lib/*.c)
LTEST_BIN := $(patsubst tests/lib/%.c,$(B)/tests/%,$(LTEST_SRC))
LTEST_SAN := $(patsubst tests/lib/%.c,$(B)/san/tests/%,$(LTEST_SRC))

$(B)/obj/lib/%.o: lib/%.c $(LIB_HDR)
	@mkdir -p $(@D)
	$(CC) $(LT_CFLAGS) -c $< -o $@

$(B)/lib/liblayout.a: $(patsubst lib/%.c,$(B)/obj/lib/%.o,$(LIB_SRC))
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(B)/bin/layout: $(CALC_SRC) $(CALC_HDR) $(B)/lib/liblayout.a
	@mkdir -p $(@D)
	$(CC) $(LT_CFLAGS) $(CALC_SRC) $(B)/lib/liblayout.a -o $@

$(B)/tests/%: tests/lib/%.c tests/lib/tap.h $(CALC_LIB) $(CALC_HDR) $(B)/lib/liblayout.a
	@mkdir -p $(@D)
	$(CC) $(LT_CFLAGS) -Itests/lib $< $(CALC_LIB) $(B)/lib/liblayout.a -o $@

# The sanitizer builds compile everything from source with the sanitizers on.
$(B)/san/bin/layout: $(LIB_SRC) $(LIB_HDR) $(CALC_SRC) $(CALC_HDR)
	@mkdir -p $(@D)
	$(CC) $(LT_SANFLAGS) $(LIB_SRC) $(CALC_SRC) -o $@

$(B)/san/tests/%: tests/lib/%.c tests/lib/tap.h $(LIB_SRC) $(LIB_HDR) $(CALC_LIB) $(CALC_HDR)
	@mkdir -p $(@D)
	$(CC) $(LT_SANFLAGS) -Itests/lib $< $(LIB_SRC) $(CALC_LIB) -o $@

.PHONY: lib calc lib-tests lib-san
lib: $(B)/lib/liblayout.a
calc: $(B)/bin/layout
lib-tests: $(LTEST_BIN)
lib-san: $(B)/san/bin/layout $(LTEST_SAN)

# The fuzz harness (clang with libFuzzer); `make fuzz` runs it for FUZZ_SECONDS.
FUZZ_SECONDS ?= 600
$(B)/fuzz/fuzz_calc: tests/fuzz/fuzz_calc.c $(LIB_SRC) $(LIB_HDR) $(CALC_LIB) $(CALC_HDR)
	@mkdir -p $(@D)
	clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -D_POSIX_C_SOURCE=200809L -Ilib -Ilabs/01_layouts \
	  tests/fuzz/fuzz_calc.c $(LIB_SRC) $(CALC_LIB) -o $@

.PHONY: fuzz
fuzz: $(B)/fuzz/fuzz_calc
	@mkdir -p $(B)/fuzz/corpus $(B)/fuzz/artifacts
	cd $(B)/fuzz && ./fuzz_calc -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 -print_final_stats=1 \
	  -artifact_prefix=artifacts/ corpus $(CURDIR)/tests/fuzz/seeds $(CURDIR)/tests/fuzz/regressions
