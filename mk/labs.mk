# Labs: labs/NN_name/, one directory each.
#
# Lab 01 is the calculator ($(LAYOUT), built by mk/lib.mk). Every other lab is
# a CUDA program: the .cu files of labs/NN_name/ are compiled together with
# nvcc into $(B)/bin/NN_name and linked with the library. Without nvcc the
# labs are skipped with one note; the library, the calculator and the
# chapters that need no CUDA lab still build.

LAB_NAMES := $(patsubst labs/%/,%,$(sort $(wildcard labs/[0-9][0-9]_*/)))
CU_LABS   := $(foreach l,$(LAB_NAMES),$(if $(wildcard labs/$(l)/*.cu),$(l)))
LAB_BINS  := $(addprefix $(B)/bin/,$(CU_LABS))

NVCCFLAGS ?= -O3 -std=c++17 -lineinfo -Ilib \
	-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
	-Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror
export NVCCFLAGS

# A lab may add link libraries in labs/NN_name/lab.mk: NN_name_LDLIBS := -lcublas,
# and replace the compiler flags: NN_name_NVCCFLAGS = ... (lab 07 targets sm_90a)
comma := ,
-include $(wildcard labs/[0-9][0-9]_*/lab.mk)

define cu_lab_rule
$(B)/bin/$(1): $(wildcard labs/$(1)/*.cu labs/$(1)/*.h) $(wildcard lib/*.h) $(LIBLAYOUT)
	@mkdir -p $$(@D)
	$$(NVCC) $$(or $$($(1)_NVCCFLAGS),$$(NVCCFLAGS)) -o $$@ $$(filter %.cu,$$^) $(LIBLAYOUT) $$($(1)_LDLIBS)
endef
$(foreach l,$(CU_LABS),$(eval $(call cu_lab_rule,$(l))))

ifneq ($(NVCC),)
labs: $(LAYOUT) $(LAB_BINS)
else
labs: $(LAYOUT)
	@$(if $(CU_LABS),echo "note: nvcc not found (PATH, /usr/local/cuda/bin): skipping the CUDA labs $(strip $(CU_LABS))")
endif

# ---------------------------------------------------------------- run
# make run LAB=02 [ARGS="..."]; LAB may be the number or the directory name.
lab_dir = $(firstword $(patsubst %/,%,$(wildcard labs/$(LAB)/ labs/$(LAB)_*/)))
lab_bin = $(if $(filter 01_%,$(notdir $(lab_dir))),$(LAYOUT),$(B)/bin/$(notdir $(lab_dir)))

run:
	@test -n "$(LAB)" || { echo "usage: make run LAB=NN [ARGS=...]"; exit 2; }
	@test -n "$(lab_dir)" || { echo "error: no lab $(LAB) in labs/"; exit 2; }
	@$(MAKE) --no-print-directory $(lab_bin)
	$(lab_bin) $(ARGS)

# ---------------------------------------------------------------- exercises
# labs/NN_name/exercises/K-slug.sh is the checker of exercise K (its
# "# title:" line names it); labs/NN_name/solutions/K.patch is its solution, a
# unified diff against the lab. See README.md and mk/exercise.sh.
exercises:
	@mk/exercise.sh list

check: $(LIBLAYOUT) $(LAYOUT)
	@test -n "$(LAB)" -a -n "$(EX)" || { echo "usage: make check LAB=NN EX=K [SOLUTION=1]"; exit 2; }
	@mk/exercise.sh check $(LAB) $(EX) $(if $(filter-out 0,$(SOLUTION)),solution)

# ---------------------------------------------------------------- outputs
# labs/NN_name/outputN.cmd is a shell command whose output is recorded in
# labs/NN_name/outputN.txt (a chapter includes it); tests compare the two.
outputs: all
	@mk/outputs.sh update

# ---------------------------------------------------------------- GPU
bench: labs
	@mk/gpu.sh bench $(CU_LABS)

gpu-data: labs
	@mk/gpu.sh data $(CU_LABS)
