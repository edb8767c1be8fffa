# chargesim — GNU make build. `make run` and `make test` install missing Debian
# packages first (scripts/deps.sh), so the README's two commands work on a fresh machine.

# The version, in one place: --version and every metadata file print it.
VERSION  := 0.17.0
CC       ?= gcc
ifeq ($(origin CC),default)
CC       := gcc
endif
XML_CFLAGS := $(shell pkg-config --cflags libxml-2.0 2>/dev/null || echo -I/usr/include/libxml2)
XML_LIBS   := $(shell pkg-config --libs libxml-2.0 2>/dev/null || echo -lxml2)
WARN     := -Wall -Wextra -Wshadow -Wconversion -Wdouble-promotion \
            -Wmissing-declarations -Wundef -Werror
OPT      ?= -O3 -g
SAN      ?=
CFLAGS   := -std=c17 $(OPT) -fopenmp $(WARN) -Iinclude $(XML_CFLAGS) -D_POSIX_C_SOURCE=200809L \
            -DCS_VERSION='"$(VERSION)"' $(SAN)
LDLIBS   := -fopenmp $(SAN) -lcsv -linih -ljansson $(XML_LIBS) -lm
BUILD    ?= build

LIB_SRC  := $(sort $(wildcard src/core/*.c src/rules/*.c src/sim/*.c src/io/*.c src/cli/*.c))
LIB_SRC  := $(filter-out src/cli/main.c,$(LIB_SRC))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(sort $(wildcard tests/test_*.c))
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
BIN      := bin/chargesim
TESTBIN  := $(BUILD)/tests/run_tests
THREADS  ?=

.PHONY: all deps run test check asan ubsan tsan bench results clean help

all: $(BIN)

help:
	@echo "make          build bin/chargesim"
	@echo "make run      install missing packages, build, run the default experiment into results/"
	@echo "make test     install missing packages, build and run every test"
	@echo "make asan     the test suite under AddressSanitizer"
	@echo "make ubsan    the test suite under UndefinedBehaviorSanitizer"
	@echo "make bench    performance figures (not a test)"
	@echo "make results  regenerate every experiment's outputs under results/"

deps:
	@scripts/deps.sh

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libchargesim.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(BUILD)/src/cli/main.o $(BUILD)/libchargesim.a
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDLIBS)

$(TESTBIN): $(TEST_OBJ) $(BUILD)/libchargesim.a
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDLIBS) -lcriterion

# The tests find the binary and the shared/ folder through these variables.
TEST_ENV := CS_BIN=$(abspath $(BIN)) CS_ROOT=$(CURDIR)

check: $(BIN) $(TESTBIN)
	$(TEST_ENV) $(TESTBIN) --jobs 2

test: deps
	@$(MAKE) --no-print-directory check

run: deps
	@$(MAKE) --no-print-directory $(BIN)
	@# The arguments make-results.sh gives, so the provenance each file
	@# records (default.csv-metadata.json, the table's note) is the same.
	$(BIN) run experiments/default.ini --quiet -o results/default.csv
	$(BIN) run experiments/default.ini --quiet --format md --pivot move:distance -o results/default.md
	@echo "wrote results/default.csv (and its CSVW metadata) and results/default.md"

asan: deps
	@$(MAKE) --no-print-directory check BUILD=build-asan BIN=build-asan/bin/chargesim OPT="-O1 -g" \
	  SAN="-fsanitize=address -fno-omit-frame-pointer" \
	  TEST_ENV="CS_BIN=$(CURDIR)/build-asan/bin/chargesim CS_ROOT=$(CURDIR) LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp"

ubsan: deps
	@$(MAKE) --no-print-directory check BUILD=build-ubsan BIN=build-ubsan/bin/chargesim OPT="-O1 -g" \
	  SAN="-fsanitize=undefined -fno-sanitize-recover=undefined" \
	  TEST_ENV="CS_BIN=$(CURDIR)/build-ubsan/bin/chargesim CS_ROOT=$(CURDIR)"

# ThreadSanitizer: Criterion's forked runner cannot start under it, so the
# threaded paths are exercised through the binary instead (scripts/tsan.sh):
# mc, conditional, exact, --dist and the dice sampler on 2 and 7 threads.
# libgomp is not instrumented; scripts/tsan.supp names what that hides.
tsan: deps
	@$(MAKE) --no-print-directory build-tsan/bin/chargesim BUILD=build-tsan BIN=build-tsan/bin/chargesim \
	  OPT="-O1 -g" SAN="-fsanitize=thread"
	scripts/tsan.sh build-tsan/bin/chargesim

bench: deps
	@$(MAKE) --no-print-directory $(BIN) $(BUILD)/bench
	$(BUILD)/bench

$(BUILD)/bench: $(BUILD)/scripts/bench.o $(BUILD)/libchargesim.a
	$(CC) -o $@ $^ $(LDLIBS)

$(BUILD)/scripts/bench.o: scripts/bench.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -O3 -MMD -MP -c $< -o $@

results: deps
	@$(MAKE) --no-print-directory $(BIN)
	scripts/make-results.sh

clean:
	rm -rf build build-asan build-ubsan build-tsan bin

-include $(LIB_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(BUILD)/src/cli/main.d $(BUILD)/scripts/bench.d
