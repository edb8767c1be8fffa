# SPDX-License-Identifier: GPL-3.0-or-later
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
CAIRO_CFLAGS := $(shell pkg-config --cflags cairo 2>/dev/null)
CAIRO_LIBS   := $(shell pkg-config --libs cairo 2>/dev/null || echo -lcairo)
WARN     := -Wall -Wextra -Wshadow -Wconversion -Wdouble-promotion \
            -Wmissing-declarations -Wundef -Werror
OPT      ?= -O3 -g
SAN      ?=
OPENMP   ?= -fopenmp
CFLAGS   := -std=c17 $(OPT) $(OPENMP) $(WARN) -Iinclude $(XML_CFLAGS) $(CAIRO_CFLAGS) -D_POSIX_C_SOURCE=200809L \
            -DCS_VERSION='"$(VERSION)"' $(SAN)
LDLIBS   := $(OPENMP) $(SAN) -lcsv -linih -ljansson -lz $(XML_LIBS) $(CAIRO_LIBS) -lgsl -lgslcblas -lgmp -lm
BUILD    ?= build

# The sources, found at any depth (src/sim and src/io have folders of their
# own: docs/ARCHITECTURE.md); sorted, so the objects link in one order.
find_c   = $(sort $(shell find $(1) -name '*.c'))
LIB_SRC  := $(call find_c,src/core src/rules src/sim src/io src/req src/cli)
LIB_SRC  := $(filter-out src/cli/main.c,$(LIB_SRC))
# The file some builds leave out, by path: the MPI backend (make MPI=1 only).
MPI_SRC  := src/sim/sched/sched_mpi.c
TEST_SRC := $(sort $(wildcard tests/test_*.c))
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
BIN      := bin/chargesim
TESTBIN  := $(BUILD)/tests/run_tests
THREADS  ?=
# `make MPI=1` (issue 22): bin/chargesim-mpi with Open MPI's mpicc, its own
# objects under build-mpi; src/sim/sched/sched_mpi.c is compiled only then, so the
# default build and bin/chargesim never see mpi.h nor link libmpi.
MPI      ?=
ifeq ($(MPI),1)
CC       := mpicc
CFLAGS   += -DCS_MPI
BUILD    := build-mpi
BIN      := bin/chargesim-mpi
else
LIB_SRC  := $(filter-out $(MPI_SRC),$(LIB_SRC))
endif
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)

# The C library (issue 53): libchargesim.so, the request API's functions
# (include/chargesim/request.h, reqapi.h) and nothing else exported, its
# objects built apart (-fPIC, hidden by default) in PIC_BUILD; the command
# line's own files (src/cli) are not in it. SO_VERSION follows the API's
# version (reqapi.h: CHARGESIM_API_VERSION_MAJOR.MINOR.0), the soname its major.
SO_MAJOR   := 0
SO_VERSION := 0.1.0
SO_NAME    := libchargesim.so.$(SO_MAJOR)
PIC_BUILD  ?= $(BUILD)-pic
SO_SRC     := $(filter-out src/cli/%,$(LIB_SRC))
SO_OBJ     := $(SO_SRC:%.c=$(PIC_BUILD)/%.o)
SO_FILE    := $(BUILD)/libchargesim.so.$(SO_VERSION)
SO_LINKS   := $(BUILD)/$(SO_NAME) $(BUILD)/libchargesim.so
# The headers a program of the API includes: request.h and what it includes.
PUB_HEADERS := $(addprefix include/chargesim/,request.h reqapi.h error.h table.h status.h)
# The Python module (python/chargesim, cffi's ABI mode over the library),
# staged by `make python` into $(BUILD)/python with the path of the library.
PY_SRC   := $(sort $(wildcard python/chargesim/*.py))
PY_STAGE := $(BUILD)/python
# The Python tests' environment beside TEST_ENV (make asan preloads libasan).
PY_ENV   ?=

# make install / uninstall (GNU conventions: PREFIX, DESTDIR for staging).
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
DATADIR  ?= $(PREFIX)/share
MANDIR   ?= $(DATADIR)/man
COMPDIR  ?= $(DATADIR)/bash-completion/completions
MAPDIR   ?= $(DATADIR)/chargesim/mappings
MAPPINGS := $(sort $(wildcard experiments/mappings/*.ini))
# The shipped catalogues (data/), where `chargesim units` looks up a roster's
# catalogue when none is beside it; their names hold spaces, so the shell
# lists them (find), never make.
SHIPDIR  ?= $(DATADIR)/chargesim/data
# The library, its headers, its pkg-config file and the Python module.
LIBDIR   ?= $(PREFIX)/lib
INCDIR   ?= $(PREFIX)/include
PCDIR    ?= $(LIBDIR)/pkgconfig
PYDIR    ?= $(PREFIX)/lib/python3/dist-packages

.PHONY: all deps deps-mpi deps-web web web-libs web-site-data js-pack test-web bench-web web-screenshot test-mpi bench-mpi run test check asan ubsan tsan bench results clean help install uninstall lib python fuzz fuzz-replay layers headers sizes archdoc testmap examples coverage golden

all: $(BIN)

help:
	@echo "make          build bin/chargesim"
	@echo "make run      install missing packages, build, run the default experiment into results/"
	@echo "make test     install missing packages, build and run every test (make check, make examples)"
	@echo "make examples run the README's and the man page's examples in a fresh clone"
	@echo "make layers   check that includes point down (core < rules < sim < io < cli) and no files call in a loop"
	@echo "make headers  check that each header's code is in its own .c or in files it names, and each exported name its file's"
	@echo "make archdoc  check that docs/ARCHITECTURE.md names every file under src/ and include/, and comments only paths that exist"
	@echo "make testmap  check that tests/README.md maps every module under src/ to its tests"
	@echo "make golden   write tests/expected/ anew from bin/chargesim (review git diff after)"
	@echo "make asan     the test suite under AddressSanitizer"
	@echo "make ubsan    the test suite under UndefinedBehaviorSanitizer"
	@echo "make tsan     the threaded paths under ThreadSanitizer (clang, Archer)"
	@echo "make coverage line and branch coverage of src/ over make check (gcovr)"
	@echo "make bench    performance figures (not a test)"
	@echo "make MPI=1    build bin/chargesim-mpi with Open MPI (make deps-mpi installs it)"
	@echo "make test-mpi build bin/chargesim-mpi and compare it with bin/chargesim (tests/mpi.sh)"
	@echo "make bench-mpi  scaling of one long run: 1 and 2 ranks x 1 thread, 1 rank x 2 threads"
	@echo "make results  regenerate every experiment's outputs under results/"
	@echo "make web      rebuild the web edition in web/ (emscripten; make deps-web installs it)"
	@echo "make test-web the web edition in headless Chromium against bin/chargesim"
	@echo "make bench-web  the web edition's speed in headless Chromium (not a test)"
	@echo "make js-pack  the JavaScript package (js/) into $(WEB_BUILD)/chargesim-$(VERSION).tgz (npm pack)"
	@echo "make lib      build libchargesim.so and libchargesim.a (the request API)"
	@echo "make python   stage the Python module into $(PY_STAGE) (PYTHONPATH)"
	@echo "make install  the binary, chargesim(1), bash completion, mappings, data, the library,"
	@echo "              its headers and chargesim.pc, the Python module (PREFIX, DESTDIR)"
	@echo "make uninstall  remove exactly what make install installed"

deps:
	@scripts/deps.sh

deps-mpi:
	@MPI=1 scripts/deps.sh

deps-web:
	@WEB=1 scripts/deps.sh

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libchargesim.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@rm -f $@
	ar rcs $@ $^

$(PIC_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -fvisibility=hidden -MMD -MP -c $< -o $@

$(SO_FILE): $(SO_OBJ) scripts/libchargesim.map
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,$(SO_NAME) -Wl,--no-undefined \
	  -Wl,--version-script,scripts/libchargesim.map -o $@ $(SO_OBJ) $(LDLIBS)

$(SO_LINKS): $(SO_FILE)
	ln -sf $(notdir $<) $@

lib: $(SO_LINKS) $(BUILD)/libchargesim.a

# The module and a _libpath.py naming the built library, so that
# PYTHONPATH=$(PY_STAGE) imports it from the source tree.
python: $(SO_LINKS)
	@rm -rf $(PY_STAGE)/chargesim && mkdir -p $(PY_STAGE)/chargesim
	cp $(PY_SRC) $(PY_STAGE)/chargesim/
	printf '%s = "%s"\n' LIBRARY "$(CURDIR)/$(BUILD)/$(SO_NAME)" MAPPINGS "$(CURDIR)/experiments/mappings" \
	  DATA "$(CURDIR)/data" >$(PY_STAGE)/chargesim/_libpath.py

$(BIN): $(BUILD)/src/cli/main.o $(BUILD)/libchargesim.a
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDLIBS)

# The allocation wrappers let tests/test_errors_oom.c fail each allocation
# of the library in turn, with the library calls of ours that allocate
# (fdopen, csv_init, xmlNewParserCtxt, gsl_qrng_alloc) counted as one each;
# only the test binary, which holds the wrappers, is linked with them.
TEST_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=fdopen \
             -Wl,--wrap=csv_init,--wrap=xmlNewParserCtxt,--wrap=gsl_qrng_alloc
# The web edition's C side (src/web/) is built natively into the tests too
# (tests/test_web.c), not into bin/chargesim.
WEB_NATIVE_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(call find_c,src/web))
$(TESTBIN): $(TEST_OBJ) $(WEB_NATIVE_OBJ) $(BUILD)/libchargesim.a
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(TEST_WRAP) $(LDLIBS) -lcriterion

# The tests find the binary and the repository (data/, experiments/) through these variables.
TEST_ENV := CS_BIN=$(abspath $(BIN)) CS_ROOT=$(CURDIR)

# Each run leaves its reports in TEST_RUN: Criterion's (JSON and XML, with
# each test's time and each skip's reason) and the test scripts' times
# (scripts/timed.sh); scripts/test-summary.py prints the skips by reason and
# the ten slowest tests from them, at the end of make check, or of make test
# after the examples (SUMMARY=no: the caller prints it). A skip is a case
# this machine cannot run (README.md, "Tests that need root"), never a
# failure; the runs' exit statuses alone decide.
TEST_RUN := $(BUILD)/tests/last-run
TIMED    := scripts/timed.sh $(TEST_RUN)/times.tsv
SUMMARY  ?= yes
check: $(BIN) $(TESTBIN) lib python layers headers sizes archdoc testmap fuzz-replay
	@rm -rf $(TEST_RUN) && mkdir -p $(TEST_RUN)
	$(TEST_ENV) $(TESTBIN) --jobs 2 --json=$(TEST_RUN)/criterion.json --xml=$(TEST_RUN)/criterion.xml
	$(TEST_ENV) $(TIMED) tests/roster.py /usr/bin/python3 tests/roster.py
	$(TEST_ENV) INSTALL_MAKE="$(MAKE) --no-print-directory BIN=$(BIN) BUILD=$(BUILD)" \
	  $(TIMED) tests/install.sh tests/install.sh
	$(TEST_ENV) RECIPE_CC="$(CC)" RECIPE_LDLIBS="$(LDLIBS)" $(TIMED) tests/recipes.sh tests/recipes.sh $(BUILD)
	$(TEST_ENV) LIB_BUILD=$(BUILD) LIB_SAN="$(SAN)" LIB_MAKE="$(MAKE) --no-print-directory BIN=$(BIN) BUILD=$(BUILD)" \
	  $(TIMED) tests/library.sh tests/library.sh
	$(TEST_ENV) $(PY_ENV) PYTHONPATH=$(CURDIR)/$(PY_STAGE) $(TIMED) tests/python \
	  scripts/pytest.sh /usr/bin/python3 -m pytest -q -p no:cacheprovider tests/python
	@if [ "$(SUMMARY)" = yes ]; then /usr/bin/python3 scripts/test-summary.py $(TEST_RUN); fi

# Installs the binary, the man page, the bash completion, the mapping files
# (which `chargesim units` reads through CS_MAPPINGS or --mapping) and the
# shipped catalogues (data/: a roster's catalogue, found beside the mappings).
install: $(BIN) lib
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(COMPDIR) $(DESTDIR)$(MAPDIR)
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR)/chargesim $(DESTDIR)$(PCDIR) \
	  $(DESTDIR)$(PYDIR)/chargesim
	install -m 755 $(SO_FILE) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(SO_FILE)) $(DESTDIR)$(LIBDIR)/$(SO_NAME)
	ln -sf $(SO_NAME) $(DESTDIR)$(LIBDIR)/libchargesim.so
	install -m 644 $(BUILD)/libchargesim.a $(DESTDIR)$(LIBDIR)/
	install -m 644 $(PUB_HEADERS) $(DESTDIR)$(INCDIR)/chargesim/
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCDIR)' '' \
	  'Name: chargesim' 'Description: charge odds of tabletop wargames (the request API)' \
	  'Version: $(VERSION)' 'Libs: -L$${libdir} -lchargesim' \
	  'Libs.private: $(filter-out $(SAN),$(LDLIBS))' 'Cflags: -I$${includedir}' \
	  >$(DESTDIR)$(PCDIR)/chargesim.pc
	install -m 644 $(PY_SRC) $(DESTDIR)$(PYDIR)/chargesim/
	printf '%s = "%s"\n' LIBRARY "$(LIBDIR)/$(SO_NAME)" MAPPINGS "$(MAPDIR)" DATA "$(SHIPDIR)" \
	  >$(DESTDIR)$(PYDIR)/chargesim/_libpath.py
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/chargesim
	install -m 644 docs/chargesim.1 $(DESTDIR)$(MANDIR)/man1/chargesim.1
	install -m 644 scripts/chargesim-completion.bash $(DESTDIR)$(COMPDIR)/chargesim
	install -m 644 $(MAPPINGS) $(DESTDIR)$(MAPDIR)
	cd data && find . -type f | sort | while IFS= read -r f; do \
	  install -D -m 644 "$$f" "$(DESTDIR)$(SHIPDIR)/$$f" || exit 1; done

# Removes those files, and the directories that are chargesim's own.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/chargesim $(DESTDIR)$(MANDIR)/man1/chargesim.1 \
	  $(DESTDIR)$(COMPDIR)/chargesim $(addprefix $(DESTDIR)$(MAPDIR)/,$(notdir $(MAPPINGS)))
	cd data && find . -type f | while IFS= read -r f; do rm -f "$(DESTDIR)$(SHIPDIR)/$$f"; done
	cd data && find . -depth -mindepth 1 -type d | while IFS= read -r d; do \
	  rmdir "$(DESTDIR)$(SHIPDIR)/$$d" 2>/dev/null || true; done
	rmdir $(DESTDIR)$(SHIPDIR) $(DESTDIR)$(MAPDIR) $(DESTDIR)$(DATADIR)/chargesim 2>/dev/null || true
	rm -f $(addprefix $(DESTDIR)$(LIBDIR)/,$(notdir $(SO_FILE)) $(SO_NAME) libchargesim.so libchargesim.a) \
	  $(addprefix $(DESTDIR)$(INCDIR)/chargesim/,$(notdir $(PUB_HEADERS))) $(DESTDIR)$(PCDIR)/chargesim.pc \
	  $(addprefix $(DESTDIR)$(PYDIR)/chargesim/,$(notdir $(PY_SRC)) _libpath.py)
	rm -rf $(DESTDIR)$(PYDIR)/chargesim/__pycache__
	rmdir $(DESTDIR)$(INCDIR)/chargesim $(DESTDIR)$(PYDIR)/chargesim 2>/dev/null || true

# Includes point down the layers core < rules < sim < io:read < web < io:write
# < cli (docs/ARCHITECTURE.md), and no files of src/ call each other in a
# loop, as the objects' symbols show (nm): the objects are built first. The
# folder-to-layer and header-to-layer mappings are in the script.
LAYERS_OBJ := $(LIB_OBJ) $(WEB_NATIVE_OBJ) $(BUILD)/src/cli/main.o
layers: $(LAYERS_OBJ)
	@scripts/layers.sh $(CURDIR) $(LAYERS_OBJ)

# A header's functions are in its own .c, or in files it names (issue 33);
# every exported name names its file, its family, or is kept with why in
# docs/ARCHITECTURE.md, "Exported names" (issue 51; objects read with nm).
headers: $(LAYERS_OBJ)
	@scripts/headers.sh $(CURDIR)
	@scripts/prefixes.sh $(CURDIR) $(LAYERS_OBJ)

# No file under src/ or include/ over 900 lines, no function over 100.
sizes:
	@scripts/sizes.sh $(CURDIR)

# tests/README.md maps every module under src/ to its test files and
# suites, and names none that does not exist (issue 51).
testmap:
	@scripts/testmap.sh $(CURDIR)

# The golden outputs (tests/test_golden.c) written anew from bin/chargesim:
# only for a change that means to alter an output, and the diff it shows is
# the change to review (tests/README.md).
golden: $(BIN) $(TESTBIN)
	CS_GOLDEN_UPDATE=1 $(TEST_ENV) $(TESTBIN) --jobs 1 --filter 'golden/*'
	@git diff --stat -- tests/expected 2>/dev/null || true

# docs/ARCHITECTURE.md names every file under src/ and include/, and no file
# that does not exist; the failure lists which (issue 29).
archdoc:
	@scripts/archdoc.sh $(CURDIR)

test: deps
	@$(MAKE) --no-print-directory check SUMMARY=no
	@$(TIMED) tests/examples.sh $(MAKE) --no-print-directory examples
	@if [ -x bin/chargesim-mpi ]; then $(TIMED) tests/mpi.sh $(MAKE) --no-print-directory test-mpi; fi
	@/usr/bin/python3 scripts/test-summary.py $(TEST_RUN)

# The examples are tests (issue 29): a clone of the committed state in an
# empty temporary folder runs every command of the README's `sh` blocks (but
# `make test`, which runs this) and of the man page's EXAMPLES, and its
# `make results` must reproduce results/ byte for byte (tests/examples.sh).
examples: deps
	tests/examples.sh $(CURDIR)

# bin/chargesim-mpi against bin/chargesim, byte for byte, on 1, 2 and 3 ranks.
test-mpi: deps-mpi
	@$(MAKE) --no-print-directory bin/chargesim
	@$(MAKE) --no-print-directory MPI=1 bin/chargesim-mpi
	tests/mpi.sh bin/chargesim bin/chargesim-mpi

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
	  TEST_ENV="CS_BIN=$(CURDIR)/build-asan/bin/chargesim CS_ROOT=$(CURDIR) CS_TEST_TIME_SCALE=5 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp" \
	  PY_ENV="LD_PRELOAD='$$(gcc -print-file-name=libasan.so) $(CURDIR)/build-asan/libchargesim.so.0'"

ubsan: deps
	@$(MAKE) --no-print-directory check BUILD=build-ubsan BIN=build-ubsan/bin/chargesim OPT="-O1 -g" \
	  SAN="-fsanitize=undefined -fno-sanitize-recover=undefined" \
	  TEST_ENV="CS_BIN=$(CURDIR)/build-ubsan/bin/chargesim CS_ROOT=$(CURDIR) CS_TEST_TIME_SCALE=5"

# ThreadSanitizer that can see a race in our OpenMP code (issue 16): clang
# with LLVM's OpenMP runtime and its Archer tool, no suppressions; gcc's
# libgomp is not instrumented, so under it every OpenMP join looked like a race
# and had to be suppressed. scripts/tsan.sh first requires the planted race of
# tests/tsan/race.c to be reported, then runs the binary's threaded paths (mc,
# conditional, exact, rqmc, --dist, --precision, compare's mc and rqmc pairs,
# dice on 2 and 7 threads): the
# Criterion runner does not start under TSan ("Could not initialize
# inheritable arena", its shared arena collides with TSan's memory layout).
# -Wno-double-promotion: clang flags glibc's float INFINITY and NAN constants
# where gcc does not; the default gcc build keeps the whole warning set.
TSAN_VARS := BUILD=build-tsan BIN=build-tsan/bin/chargesim CC=clang OPENMP=-fopenmp=libomp \
             OPT="-O1 -g" SAN=-fsanitize=thread \
             WARN="$(filter-out -Wdouble-promotion,$(WARN)) -Wno-double-promotion"
tsan: deps
	@test -f build-tsan/.clang-libomp || rm -rf build-tsan  # objects of the old gcc build
	@mkdir -p build-tsan && touch build-tsan/.clang-libomp
	@$(MAKE) --no-print-directory build-tsan/bin/chargesim build-tsan/tests/tsan/race $(TSAN_VARS)
	scripts/tsan.sh build-tsan/bin/chargesim build-tsan/tests/tsan/race

# Line and branch coverage of src/ (issue 18): the whole of `make check`
# (Criterion on 2 jobs, the fuzz corpus replay, tests/install.sh) built at -O1
# with --coverage into build-cov, then gcovr over src/. It fails below
# COV_LINES or COV_BRANCHES per cent. The counters are reset first, so the
# figures are those of one run. scripts/coverage-messages.py prints the
# figures per layer and every error message the suite never reaches;
# build-cov/coverage.txt has the uncovered lines of each file. -O1 rather
# than -O0 keeps the run within 10 minutes on 2 cores; gcc then folds some conditions, which counts them as
# fewer branches, never as covered ones. libgcov's own complaints (a test
# that limits the file size, ulimit -f, also limits the .gcda it writes at
# exit) go to GCOV_ERROR_FILE, not into the stderr the tests compare. The
# tests that bound a blow-up in wall-clock time allow 5 times as long.
# CS_COVERAGE: a process that dies of a signal it deferred (--checkpoint's
# "stopped by") and a test's child that leaves by _exit write their counters
# first (__gcov_dump), as a normal exit does; otherwise what they ran would
# count as never reached.
COV_BUILD    := build-cov
COV_LINES    ?= 95
COV_BRANCHES ?= 85
coverage: deps
	@command -v gcovr >/dev/null || { echo "make coverage needs gcovr (apt-get install gcovr)"; exit 1; }
	@find $(COV_BUILD) -name '*.gcda' -delete 2>/dev/null || true
	@$(MAKE) --no-print-directory check BUILD=$(COV_BUILD) BIN=$(COV_BUILD)/bin/chargesim \
	  OPT="-O1 -g" SAN="--coverage -DCS_COVERAGE" \
	  TEST_ENV="CS_BIN=$(CURDIR)/$(COV_BUILD)/bin/chargesim CS_ROOT=$(CURDIR) \
	  GCOV_ERROR_FILE=$(CURDIR)/$(COV_BUILD)/gcov-errors.log CS_TEST_TIME_SCALE=5"
	gcovr --root $(CURDIR) --filter '$(CURDIR)/src/' --object-directory $(COV_BUILD) \
	  --gcov-ignore-parse-errors --json $(COV_BUILD)/coverage.json
	@scripts/coverage-messages.py $(COV_BUILD)/coverage.json $(CURDIR)
	gcovr --add-tracefile $(COV_BUILD)/coverage.json --txt $(COV_BUILD)/coverage.txt --print-summary \
	  --fail-under-line $(COV_LINES) --fail-under-branch $(COV_BRANCHES)

# The planted race for `make tsan`; not in the product nor in run_tests.
$(BUILD)/tests/tsan/race: tests/tsan/race.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(OPENMP) $(SAN)

bench: deps
	@$(MAKE) --no-print-directory $(BIN) $(BUILD)/bench
	$(BUILD)/bench
	@if [ -x bin/chargesim-mpi ]; then scripts/bench-mpi.sh bin/chargesim-mpi; fi

$(BUILD)/bench: $(BUILD)/scripts/bench.o $(BUILD)/libchargesim.a
	$(CC) -o $@ $^ $(LDLIBS)

# One long experiment on 1 and 2 ranks x 1 thread and 1 rank x 2 threads
# (not a test: figures for the README's "ranks x threads").
bench-mpi: deps-mpi
	@$(MAKE) --no-print-directory MPI=1 bin/chargesim-mpi
	scripts/bench-mpi.sh bin/chargesim-mpi

$(BUILD)/scripts/bench.o: scripts/bench.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -O3 -MMD -MP -c $< -o $@

results: deps
	@$(MAKE) --no-print-directory $(BIN)
	scripts/make-results.sh

# Fuzzing (issue 18). tests/fuzz/fuzz_NAME.c are libFuzzer harnesses, each
# with a seed corpus (tests/fuzz/corpus/NAME, which also keeps every input that
# once failed) and a dictionary (tests/fuzz/NAME.dict). `make fuzz` builds them
# with clang, ASan and UBSan and runs each for FUZZ_SECONDS; what it finds goes
# to build-fuzz/ (new inputs to build-fuzz/corpus, crashes to
# build-fuzz/artifacts). `make check` replays every corpus through the normal
# build (tests/fuzz/replay.c), so a fixed defect stays fixed.
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(filter-out tests/fuzz/fuzz_file.c,$(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_SECONDS ?= 60
FUZZ_BUILD   := build-fuzz
FUZZ_CC      ?= clang
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS  := -std=c17 -O1 -g -fopenmp -Iinclude -Itests/fuzz $(XML_CFLAGS) $(CAIRO_CFLAGS) \
                -D_POSIX_C_SOURCE=200809L -DCS_VERSION='"$(VERSION)"' $(FUZZ_SAN)
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ_BUILD)/%.o) $(FUZZ_BUILD)/tests/fuzz/fuzz_file.o \
                $(FUZZ_BUILD)/tests/fuzz/units_body.o
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)
REPLAY_BINS  := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/replay_%)

$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/tests/fuzz/fuzz_%.o $(FUZZ_LIB_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ -lcsv -linih -ljansson -lz $(XML_LIBS) $(CAIRO_LIBS) -lgsl -lgslcblas -lgmp -lm

fuzz: deps
	@$(MAKE) --no-print-directory $(FUZZ_BINS)
	@set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$t $(FUZZ_BUILD)/artifacts; \
	  echo "fuzz_$$t: $(FUZZ_SECONDS) s"; \
	  $(FUZZ_BUILD)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    -dict=tests/fuzz/$$t.dict -artifact_prefix=$(FUZZ_BUILD)/artifacts/$$t- \
	    -print_final_stats=1 -close_fd_mask=1 $(FUZZ_BUILD)/corpus/$$t tests/fuzz/corpus/$$t 2>&1 | tail -n 12; \
	done

$(BUILD)/fuzz/replay_%: $(BUILD)/tests/fuzz/fuzz_%.o $(BUILD)/tests/fuzz/replay.o \
                        $(BUILD)/tests/fuzz/fuzz_file.o $(BUILD)/tests/fuzz/units_body.o \
                        $(BUILD)/libchargesim.a
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/fuzz/%.o: tests/fuzz/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/fuzz -MMD -MP -c $< -o $@

.SECONDARY:

fuzz-replay: $(REPLAY_BINS)
	@for t in $(FUZZ_TARGETS); do $(BUILD)/fuzz/replay_$$t tests/fuzz/corpus/$$t || exit 1; done

# The web edition (issue 31): src/core, src/rules, src/sim, src/web and
# io's readers compiled by Debian's emscripten into web/chargesim.js and
# .wasm, the static site's engine, committed so that web/ is hostable as it
# stands. No OpenMP (emscripten has no runtime: one thread, the same
# numbers), no MPI. The C libraries the readers and rqmc need come from
# Debian's source packages, built for WebAssembly by scripts/web-libs.sh
# into $(WEB_LIBS) (issue 44). emcc runs the machine's node, which finds
# Debian's JavaScript modules only through NODE_PATH. clang flags the C
# library's float INFINITY as a double promotion, as for make tsan. Rebuilt
# from the same sources, the files are the same bytes (make test-web checks
# web/ against a fresh build).
#
# WEB_IO_READERS: the io files the page compiles in: io's readers and
# builders (src/io/read, src/io/units: the units table is built in memory),
# never its writers (src/io/write, src/io/draw); make layers checks it.
WEB_IO_READERS := $(call find_c,src/io/read src/io/units)
WEB_SRC    := $(sort $(call find_c,src/core src/rules src/sim src/req src/web) $(WEB_IO_READERS))
WEB_SRC    := $(filter-out $(MPI_SRC),$(WEB_SRC))
WEB_BUILD  := build-web
WEB_OBJ    := $(WEB_SRC:%.c=$(WEB_BUILD)/%.o)
WEB_LIBS   := $(WEB_BUILD)/libs/prefix
# Linked in: what the readers and rqmc use (jansson and zlib: the roster
# reader's JSON and zip, issue 46; GMP: the fractions of dice --exact, issue 52).
WEB_LIBA   := $(addprefix $(WEB_LIBS)/lib/,libxml2.a libcsv.a libinih.a libgsl.a libjansson.a libz.a libgmp.a)
EMCC       ?= emcc
WEB_ENV    := NODE_PATH=/usr/share/nodejs
WEB_CFLAGS := -std=c17 -O3 $(filter-out -Wdouble-promotion,$(WARN)) -Wno-source-uses-openmp \
              -Iinclude -I$(WEB_LIBS)/include -I$(WEB_LIBS)/include/libxml2 \
              -D_POSIX_C_SOURCE=200809L -DCS_VERSION='"$(VERSION)"'
WEB_LDFLAGS := -O3 -sENVIRONMENT=web,worker -sMODULARIZE=1 -sEXPORT_NAME=createChargesim \
               -sALLOW_MEMORY_GROWTH=1 -sFILESYSTEM=1 \
               -sEXPORTED_FUNCTIONS=_cs_web_begin,_cs_web_pair,_cs_web_exec,_cs_web_check,_cs_web_rulesets,_cs_web_units,_cs_web_key_of,_cs_web_free \
               -sEXPORTED_RUNTIME_METHODS=ccall,UTF8ToString,FS
# The catalogues, their index and the mappings, gzipped into the site
# (scripts/web-data.py): the page fetches only the army it shows.
WEB_DATA_DIRS := data/tow data/bsdata-t9a-2nd data/bsdata-asoiaf

$(WEB_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(WEB_ENV) $(EMCC) $(WEB_CFLAGS) -MMD -MP -c $< -o $@

# The engine is linked in build-web/site/ and copied into web/, so a fresh
# link always exists to hold against the committed files (a clone's web/
# is as new as its sources: make alone could not tell it stale).
$(WEB_BUILD)/site/chargesim.js: $(WEB_OBJ) $(WEB_LIBA)
	@mkdir -p $(dir $@)
	$(WEB_ENV) $(EMCC) $(WEB_LDFLAGS) -o $@ $^
	chmod 644 $(WEB_BUILD)/site/chargesim.wasm

# The JavaScript package (issue 53, js/): the same objects linked for Node
# too (worker_threads), staged with js/'s files into $(JS_STAGE) and packed
# by npm into $(WEB_BUILD)/chargesim-$(VERSION).tgz (make js-pack;
# tests/js.sh, run by make test-web, installs that tarball offline).
comma      := ,
JS_STAGE   := $(WEB_BUILD)/pkg
JS_SRC     := js/package.json js/index.js js/index.d.ts js/README.md js/engine/package.json js/engine/worker.js
JS_LDFLAGS := $(subst -sENVIRONMENT=web$(comma)worker,-sENVIRONMENT=web$(comma)worker$(comma)node,$(WEB_LDFLAGS))
$(JS_STAGE)/engine/chargesim.js: $(WEB_OBJ) $(WEB_LIBA)
	@mkdir -p $(dir $@)
	$(WEB_ENV) $(EMCC) $(JS_LDFLAGS) -o $@ $^
	chmod 644 $(JS_STAGE)/engine/chargesim.wasm

js-pack: $(JS_STAGE)/engine/chargesim.js $(JS_SRC)
	@for f in $(JS_SRC); do mkdir -p $(JS_STAGE)/$$(dirname $${f#js/}); cp $$f $(JS_STAGE)/$${f#js/}; done
	cd $(JS_STAGE) && npm pack --offline --pack-destination .. >/dev/null

# The libraries, fetched and built when their source versions change.
web-libs:
	@WEB_BUILD=$(WEB_BUILD) EMCC=$(EMCC) scripts/web-libs.sh all

# The site's data and the versions built from, beside the engine.
web-site-data:
	@rm -rf $(WEB_BUILD)/site/data
	/usr/bin/python3 scripts/web-data.py $(WEB_BUILD)/site/data $(WEB_DATA_DIRS)
	@{ echo "# The Debian source packages the web edition's libraries were built from"; \
	   echo "# (make web; name, version, and the suite when not the machine's own)."; \
	   cat $(WEB_BUILD)/libs/VERSIONS; } > $(WEB_BUILD)/site/SOURCES.txt

web: deps-web
	@command -v $(EMCC) >/dev/null || { echo "make web needs emscripten: make deps-web"; exit 1; }
	@$(MAKE) --no-print-directory web-libs
	@$(MAKE) --no-print-directory $(WEB_BUILD)/site/chargesim.js web-site-data
	cp $(WEB_BUILD)/site/chargesim.js $(WEB_BUILD)/site/chargesim.wasm $(WEB_BUILD)/site/SOURCES.txt web/
	cp js/index.js web/js/pkg.js && cp js/engine/worker.js web/worker.js
	rm -rf web/data && cp -r $(WEB_BUILD)/site/data web/data
	/usr/bin/python3 scripts/web-stamp.py web

# The browser test (tests/web/test_web.py): web/ served on the loopback,
# Debian's headless Chromium driven over the DevTools protocol from
# Debian's python3, every table checked against bin/chargesim. It first
# builds the engine afresh. When the libraries were built from the source
# versions web/SOURCES.txt records, the committed web/ must be that build,
# byte for byte; when Debian has moved on (a security fix), the fresh build
# is tested in a copy of web/ and web/ is said to be due for a rebuild.
# web/ must carry its files' version stamp (scripts/web-stamp.py: the
# service worker's cache and the ?v= of the scripts, so a release is never
# half-loaded). make deps-web installs the test's accessibility checker
# (axe-core, npm) into build-web/npm.
test-web: deps-web
	@$(MAKE) --no-print-directory web-libs
	@$(MAKE) --no-print-directory $(BIN) $(WEB_BUILD)/site/chargesim.js web-site-data js-pack
	tests/js.sh $(BIN) $(WEB_BUILD)/chargesim-$(VERSION).tgz $(WEB_BUILD)/site/data
	@site=web; \
	if cmp -s $(WEB_BUILD)/site/SOURCES.txt web/SOURCES.txt; then \
	  for f in chargesim.js chargesim.wasm; do \
	    cmp -s $(WEB_BUILD)/site/$$f web/$$f || \
	    { echo "test-web: web/$$f differs from a fresh build: run make web and commit web/"; exit 1; }; \
	  done; \
	  diff -r $(WEB_BUILD)/site/data web/data >/dev/null || \
	  { echo "test-web: web/data differs from a fresh build: run make web and commit web/"; exit 1; }; \
	  /usr/bin/python3 scripts/web-stamp.py web --check || exit 1; \
	  cmp -s js/index.js web/js/pkg.js && cmp -s js/engine/worker.js web/worker.js || \
	  { echo "test-web: web/js/pkg.js or web/worker.js differs from js/: run make web and commit web/"; exit 1; }; \
	else \
	  echo "test-web: web/ is due for a rebuild: its libraries' Debian sources moved on"; \
	  diff web/SOURCES.txt $(WEB_BUILD)/site/SOURCES.txt || true; \
	  echo "test-web: testing a fresh build instead (make web, then commit web/)"; \
	  rm -rf $(WEB_BUILD)/test-site && cp -r web $(WEB_BUILD)/test-site && \
	  rm -rf $(WEB_BUILD)/test-site/data && \
	  cp -r $(WEB_BUILD)/site/chargesim.js $(WEB_BUILD)/site/chargesim.wasm \
	        $(WEB_BUILD)/site/SOURCES.txt $(WEB_BUILD)/site/data $(WEB_BUILD)/test-site/ && \
	  cp js/index.js $(WEB_BUILD)/test-site/js/pkg.js && cp js/engine/worker.js $(WEB_BUILD)/test-site/worker.js && \
	  /usr/bin/python3 scripts/web-stamp.py $(WEB_BUILD)/test-site && \
	  site=$(WEB_BUILD)/test-site; \
	fi; \
	/usr/bin/python3 tests/web/test_web.py $(BIN) $$site

# The README's screenshots of the web edition, taken by headless Chromium:
# the run tab at 1280 px, the same link at a phone's 360 px, the Units tab.
web-screenshot: deps-web
	/usr/bin/python3 tests/web/screenshot.py web docs/web-edition.png docs/web-edition-phone.png docs/web-units.png

# The web edition's speed in headless Chromium (not a test): a 97 x 49
# exact T9A threat map, a 24-distance exact table, a whole units table, an
# rqmc run to +-0.1 pp, the .wasm's and the JavaScript's size.
bench-web: deps-web
	@$(MAKE) --no-print-directory web
	/usr/bin/python3 tests/web/bench_web.py web

clean:
	rm -rf build build-asan build-ubsan build-tsan build-fuzz build-mpi build-cov build-web bin \
	  build-pic build-asan-pic build-ubsan-pic build-tsan-pic build-mpi-pic build-cov-pic

-include $(wildcard $(WEB_OBJ:.o=.d))
-include $(wildcard $(SO_OBJ:.o=.d))
-include $(LIB_OBJ:.o=.d) $(WEB_NATIVE_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(wildcard $(BUILD)/tests/fuzz/*.d) $(wildcard $(FUZZ_LIB_OBJ:.o=.d) $(FUZZ_BUILD)/tests/fuzz/*.d) $(BUILD)/src/cli/main.d $(BUILD)/scripts/bench.d
