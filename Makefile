# lapsvm -- semi-supervised learning by manifold regularization.
#
#   make          build the tools
#   make demo     two moons made here, one label per class -> graph, model, predictions
#   make test     C unit tests, the fuzz harnesses replayed over their corpora
#                 (tests/fuzz), and Bats command-line tests
#   make asan     the same suite built with -fsanitize=address,undefined
#   make fuzz     each text parser's harness under libFuzzer (clang), one at a
#                 time, FUZZ_SECONDS (60) each; new inputs go to build/fuzz/
#   make clean
#
# Link with the system BLAS/LAPACK (-llapack -lblas); an optimized BLAS such
# as OpenBLAS drops in at run time through Debian's alternatives.

CC      ?= cc
CFLAGS  ?= -O2
# Flags the code needs, whatever CFLAGS the caller gives (make asan does).
XCFLAGS = -std=c99 -Wall -Wextra -D_XOPEN_SOURCE=700 -fopenmp $(CFLAGS)
LDLIBS  = -llapack -lblas -lm

# Objects go to $(O); the tools to $(BIN) (the top level, like LIBSVM).
# make MPI=1: the same tools built by mpicc with the MPI communication
# (common/comm.c under -DLSV_MPI) into build/mpi, beside the plain build.
# (mpicc whatever CC the command line gives: make CC=gcc test passes CC on
# to this build; MPICC names another wrapper)
ifeq ($(MPI),1)
MPICC   ?= mpicc
ifeq ($(shell command -v $(MPICC)),)
$(error $(MPICC) not found: make MPI=1 needs OpenMPI (Debian: apt-get install libopenmpi-dev openmpi-bin))
endif
override CC := $(MPICC)
XCFLAGS += -DLSV_MPI
O       ?= build/mpi/obj
BIN     ?= build/mpi
else
O       ?= build/obj
BIN     ?= .
endif

TOOLS   = graph-build lapsvm-datagen lapsvm-train lapsvm-predict lapsvm-pca
LIBSRC  = $(wildcard common/*.c)
LIBOBJ  = $(LIBSRC:common/%.c=$(O)/common/%.o)
HDRS    = $(wildcard common/*.h)
UNITSRC = $(wildcard tests/unit/test_*.c)
TESTBIN = $(O)/tests/unit-tests $(O)/tests/knn-ref

all: $(TOOLS:%=$(BIN)/%)

$(O)/common/%.o: common/%.c $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(XCFLAGS) -c -o $@ $<

$(O)/tool.o: tool.c tool.h common/lapsvm.h
	@mkdir -p $(@D)
	$(CC) $(XCFLAGS) -Icommon -c -o $@ $<

$(O)/liblapsvm.a: $(LIBOBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(BIN)/%: %.c $(O)/tool.o $(O)/liblapsvm.a $(HDRS) tool.h
	@mkdir -p $(@D)
	$(CC) $(XCFLAGS) -Icommon -o $@ $< $(O)/tool.o $(O)/liblapsvm.a $(LDFLAGS) $(LDLIBS)

$(O)/tests/unit-tests: $(UNITSRC) tests/unit/unit.h tests/unit/ref.c tests/unit/ref.h tests/unit/short_dsyevr.c $(O)/liblapsvm.a
	@mkdir -p $(@D)
	$(CC) $(XCFLAGS) -Icommon -Itests/unit -o $@ $(UNITSRC) tests/unit/ref.c tests/unit/short_dsyevr.c $(O)/liblapsvm.a $(LDFLAGS) $(LDLIBS)

$(O)/tests/knn-ref: tests/knn-ref.c tests/unit/ref.c tests/unit/ref.h $(O)/liblapsvm.a
	@mkdir -p $(@D)
	$(CC) $(XCFLAGS) -Icommon -Itests/unit -o $@ tests/knn-ref.c tests/unit/ref.c $(O)/liblapsvm.a $(LDFLAGS) $(LDLIBS)

# Fuzz harnesses of the data, graph, model, graph record and precomputed kernel readers (tests/fuzz/README):
# fuzz-* replays files through them (any compiler, make test); libfuzzer-*
# is the libFuzzer build (make fuzz).
FUZZERS = data graph model record precomputed
FUZZBIN = $(FUZZERS:%=$(O)/tests/fuzz-%)

$(FUZZBIN): $(O)/tests/fuzz-%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c tests/fuzz/fuzz.h $(O)/liblapsvm.a
	@mkdir -p $(@D)
	$(CC) $(XCFLAGS) -Icommon -o $@ $< tests/fuzz/replay.c $(O)/liblapsvm.a $(LDFLAGS) $(LDLIBS)

$(FUZZERS:%=$(O)/tests/libfuzzer-%): $(O)/tests/libfuzzer-%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(O)/liblapsvm.a
	@mkdir -p $(@D)
	$(CC) $(XCFLAGS) -fsanitize=fuzzer -Icommon -o $@ $< $(O)/liblapsvm.a $(LDFLAGS) $(LDLIBS)

# The regression inputs of a parser, if it has any.
fuzz_inputs = tests/fuzz/corpus/$(1) $(wildcard tests/fuzz/regress/$(1))

# Shared data sets (never committed to this repository).  Tests that need them
# are skipped, with a message, when the directory is absent.
DATA    ?= ../shared/data
BATS    ?= bats

# The MPI build is tested too (tests/bats/mpi.bats) when mpicc is installed:
# make test builds it first (MPITEST=0 leaves it out).  make asan builds it
# with the sanitizers too; mpi.bats then suppresses OpenMPI's own leaks
# (tests/lsan-mpi.supp), not ours.
MPITEST ?= $(if $(shell command -v mpicc),1,0)
MPIBIN  ?= build/mpi
ifeq ($(MPITEST),1)
test: mpi-build
mpi-build:
	$(MAKE) MPI=1 O=$(MPIBIN)/obj BIN=$(MPIBIN)
endif

test: all $(TESTBIN) $(FUZZBIN)
	$(O)/tests/unit-tests
	$(foreach f,$(FUZZERS),$(O)/tests/fuzz-$(f) $(call fuzz_inputs,$(f)) &&) true
	LAPSVM_BIN="$$(cd '$(BIN)' && pwd)" LAPSVM_TESTBIN="$$(cd '$(O)/tests' && pwd)" \
	  LAPSVM_MPIBIN="$(if $(filter 1,$(MPITEST)),$$(cd '$(MPIBIN)' && pwd),/nonexistent)" \
	  LAPSVM_DATA="$$(cd '$(DATA)' 2>/dev/null && pwd)" $(BATS) tests/bats

SANFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	   -fno-sanitize-recover=undefined
# A leak ends a run with status 23, never the 1 of an expected failure, so
# tests that check a failure's status catch leaks on error paths too.
asan:
	LSAN_OPTIONS=exitcode=23 $(MAKE) test O=build/asan BIN=build/asan/bin \
	  MPIBIN=build/asan/mpi \
	  CFLAGS="$(SANFLAGS)" LDFLAGS="-fsanitize=address,undefined"

# libFuzzer (clang; Debian's clang ships its runtime) on each parser in turn,
# one process, seeded with the committed corpus and regression inputs; new
# inputs go to build/fuzz/corpus, crashes to build/fuzz/artifacts.  Runs
# only the named ones with FUZZERS=model, longer with FUZZ_SECONDS=600.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_ARGS    ?= -max_len=65536 -timeout=10 -rss_limit_mb=2048
FUZZFLAGS = -O1 -g -fno-omit-frame-pointer \
	    -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
fuzz:
	$(MAKE) O=build/fuzz CC=$(FUZZ_CC) CFLAGS="$(FUZZFLAGS)" \
	  LDFLAGS="-fsanitize=address,undefined" \
	  $(FUZZERS:%=build/fuzz/tests/libfuzzer-%)
	@$(foreach f,$(FUZZERS),mkdir -p build/fuzz/corpus/$(f) build/fuzz/artifacts/$(f) && \
	  echo "== fuzz $(f): $(FUZZ_SECONDS) s" && \
	  OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 build/fuzz/tests/libfuzzer-$(f) \
	    -max_total_time=$(FUZZ_SECONDS) $(FUZZ_ARGS) -dict=tests/fuzz/$(f).dict \
	    -artifact_prefix=build/fuzz/artifacts/$(f)/ \
	    build/fuzz/corpus/$(f) $(call fuzz_inputs,$(f)) &&) true

# Two moons made here (no download), one label per class: graph, LapSVM,
# predictions of all 200 points scored against their true labels.
demo: all
	@mkdir -p build/demo
	$(BIN)/lapsvm-datagen -S 1 moons build/demo/moons.libsvm
	$(BIN)/lapsvm-datagen -S 1 -l 1 moons build/demo/moons-l1.libsvm
	$(BIN)/graph-build -e 0.25 build/demo/moons-l1.libsvm build/demo/moons.graph
	$(BIN)/lapsvm-train -t 2 -g 4 -a 0.03125 -i 100 -G build/demo/moons.graph \
	  build/demo/moons-l1.libsvm build/demo/moons.model
	$(BIN)/lapsvm-predict build/demo/moons.libsvm build/demo/moons.model \
	  build/demo/moons.pred

# The paper's experiments (JMLR 2006 Sections 5 and 6.1; Argyriou et al. 2005), each printing its
# table beside the paper's; figures (PNG, gnuplot) and per-run results go to
# build/.  About 3 hours on 2 cores (README, Reproducing the paper): 17
# minutes for JMLR 2006 Section 5 with OpenBLAS, 19 for ssl-book, 23 for
# the argyriou ones, about 8 for the clustering ones (measured on a loaded
# machine; cluster-digits needs Debian's python3-sklearn for its k-means
# peer), about 45 for manifoldboost-uci and 60 for manifoldboost-digit1
# (reference BLAS on a loaded machine; the latter runs ssl-book.sh's Digit1
# part too).  Not here: experiments/manifoldboost-secstr.sh (75 minutes),
# experiments/cluster-fashion.sh (Fashion-MNIST, about 10 minutes with its
# k-means peer; the data from datasets/fetch fashion); experiments/label-aware.sh
# (Wang et al. 2014 Table 1: 8 sets x 30 draws x 7 widths x 5 methods, hours on
# 2 cores; README says what was run).
EXPERIMENTS = moons moons-figures uspst usps-pairs usps-curve isolet webkb webkb-curve ssl-book \
              cluster-figures cluster-digits argyriou-table1 argyriou-fig3 argyriou-fig4 \
              manifoldboost manifoldboost-figures manifoldboost-uci manifoldboost-digit1
experiments: all
	@mkdir -p build/experiments
	@for e in $(EXPERIMENTS); do \
	  echo "== experiments/$$e.sh"; \
	  DATA=$(DATA) experiments/$$e.sh > build/experiments/$$e.md || exit 1; \
	  cat build/experiments/$$e.md; \
	done

clean:
	rm -rf build $(TOOLS)

.PHONY: all test mpi-build asan fuzz demo experiments clean
