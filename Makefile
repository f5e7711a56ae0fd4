# lapsvm -- semi-supervised learning by manifold regularization.
#
#   make          build the tools
#   make demo     two moons made here, one label per class -> graph, model, predictions
#   make test     C unit tests and Bats command-line tests
#   make asan     the same suite built with -fsanitize=address,undefined
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
O       ?= build/obj
BIN     ?= .

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

$(O)/tests/unit-tests: $(UNITSRC) tests/unit/unit.h tests/unit/ref.c tests/unit/ref.h $(O)/liblapsvm.a
	@mkdir -p $(@D)
	$(CC) $(XCFLAGS) -Icommon -Itests/unit -o $@ $(UNITSRC) tests/unit/ref.c $(O)/liblapsvm.a $(LDFLAGS) $(LDLIBS)

$(O)/tests/knn-ref: tests/knn-ref.c tests/unit/ref.c tests/unit/ref.h $(O)/liblapsvm.a
	@mkdir -p $(@D)
	$(CC) $(XCFLAGS) -Icommon -Itests/unit -o $@ tests/knn-ref.c tests/unit/ref.c $(O)/liblapsvm.a $(LDFLAGS) $(LDLIBS)

# Shared data sets (never committed to this repository).  Tests that need them
# are skipped, with a message, when the directory is absent.
DATA    ?= ../shared/data
BATS    ?= bats

test: all $(TESTBIN)
	$(O)/tests/unit-tests
	LAPSVM_BIN=$(abspath $(BIN)) LAPSVM_TESTBIN=$(abspath $(O)/tests) \
	  LAPSVM_DATA=$(abspath $(DATA)) $(BATS) tests/bats

SANFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	   -fno-sanitize-recover=undefined
asan:
	$(MAKE) test O=build/asan BIN=build/asan/bin \
	  CFLAGS="$(SANFLAGS)" LDFLAGS="-fsanitize=address,undefined"

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

# The paper's experiments (JMLR 2006 Section 5), each printing its table
# beside the paper's; figures (PNG, gnuplot) and per-run results go to
# build/.  About 20 minutes on 2 cores with OpenBLAS.
EXPERIMENTS = moons moons-figures uspst usps-pairs usps-curve isolet webkb webkb-curve
experiments: all
	@mkdir -p build/experiments
	@for e in $(EXPERIMENTS); do \
	  echo "== experiments/$$e.sh"; \
	  DATA=$(DATA) experiments/$$e.sh > build/experiments/$$e.md || exit 1; \
	  cat build/experiments/$$e.md; \
	done

clean:
	rm -rf build $(TOOLS)

.PHONY: all test asan demo experiments clean
