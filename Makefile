# rdmadiag: `make` builds rdmadiag/rdmadiag. See README.md.
#   make SANITIZE=1     AddressSanitizer + UndefinedBehaviorSanitizer build
#   make V=1            show the commands
#   make check          install what the tests need, build, run every test
#   make demo           boot the two-host Soft-RoCE lab and show rdmadiag in it
#   make install        PREFIX=/usr/local DESTDIR=
#   make deb            Debian package in build/deb-src/ (scripts/build-deb.sh)
PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/vendor-completions
JSONDIR ?= $(PREFIX)/share/doc/rdmadiag/json

CC ?= gcc
PKGS := libmnl libibverbs librdmacm libkmod
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# libkmod, libibverbs and librdmacm are dlopen()ed on first use (host/module_presence.c,
# verbs/dl.c): headers only, so that start-up maps libmnl and libc alone.
PKG_LIBS := $(shell pkg-config --libs libmnl 2>/dev/null) -ldl

CFLAGS ?= -O2 -g
# snprintf truncation is how this code bounds strings on purpose, hence no format-truncation.
CFLAGS += -std=gnu11 -Wall -Wextra -Werror -Wno-missing-field-initializers -Wno-format-truncation -MMD -MP
CPPFLAGS += $(PKG_CFLAGS) -D_GNU_SOURCE
LDLIBS += $(PKG_LIBS) -lm

ifeq ($(SANITIZE),1)
CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
# The code reading an option its action's table lacks aborts (opt_slot(),
# rdmadiag/rdmadiag.h), so the tests, which run this build, catch it.
CPPFLAGS += -DSTRICT_OPT_LOOKUP
endif

ifeq ($(V),1)
Q :=
say = @true
else
Q := @
say = @echo "  $(1)	$@"
endif

# The source folders, lowest layer first (README.md, "Layout").
LOWER_DIRS := util host netlink verbs path snapshot
SRC_DIRS := $(LOWER_DIRS) rdmadiag
# Everything but main.c goes into a static library the unit tests link too.
LIB_SRCS := $(wildcard $(LOWER_DIRS:=/*.c)) $(filter-out rdmadiag/main.c,$(wildcard rdmadiag/*.c))
LIB_OBJS := $(LIB_SRCS:.c=.o)
BIN := rdmadiag/rdmadiag
LIB := build/librdmadiag.a

# Programs the tests run: fixture generator (host) and QP holder (lab).
TEST_PROGS := tests/tools/gen_res_fixture tests/tools/nl_qp_dump tests/helpers/qp_holder tests/helpers/path_probe

UNIT_SRCS := $(wildcard tests/unit/*_test.c)
UNIT_BINS := $(UNIT_SRCS:.c=)

# Rebuild everything when the flags change (e.g. SANITIZE=1 after a plain build).
FLAGS_FILE := build/flags
FLAGS_NOW := $(CC) $(CFLAGS) $(CPPFLAGS) $(LDFLAGS)

all: $(BIN) $(TEST_PROGS)

$(FLAGS_FILE): FORCE
	@mkdir -p build
	@if [ "$$(cat $@ 2>/dev/null)" != '$(FLAGS_NOW)' ]; then echo '$(FLAGS_NOW)' > $@; fi

deps-build:
	@if ! pkg-config --exists $(PKGS) 2>/dev/null; then scripts/install-deps.sh build; fi

%.o: %.c $(FLAGS_FILE)
	$(call say,CC)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BIN): rdmadiag/main.o $(LIB)
	$(call say,LD)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

tests/unit/%_test: tests/unit/%_test.c $(LIB) $(FLAGS_FILE)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

tests/tools/gen_res_fixture tests/tools/nl_qp_dump: %: %.c $(FLAGS_FILE)
	$(call say,LD)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< -lmnl

tests/helpers/qp_holder: tests/helpers/qp_holder.c $(FLAGS_FILE)
	$(call say,LD)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< -libverbs

# The hostile path tester of tests/lab/two-host/70-serve-hostile.bats: the session code of the tool.
tests/helpers/path_probe: tests/helpers/path_probe.c $(LIB) $(FLAGS_FILE)
	$(call say,LD)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

unit: $(UNIT_BINS)

# The lower layers link without the front end (issue #22): every object of
# util/, host/, netlink/, verbs/, path/ and snapshot/, with a main of their own and NO
# object of rdmadiag/, named one by one and not through the archive, so that
# a call back up into the front end is an undefined symbol and `make unit` fails.
LOWER_OBJS := $(patsubst %.c,%.o,$(wildcard $(LOWER_DIRS:=/*.c)))
tests/unit/lower_layers_test: tests/unit/lower_layers_test.c $(LOWER_OBJS) $(FLAGS_FILE)
	$(call say,LD)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LOWER_OBJS) $(LDLIBS)

# The test suite runs the sanitized build (ASan+UBSan): correctness tests do
# not time anything, and every run doubles as a memory-safety check. Benchmarks
# (tests/bench/) build their own plain binary.
check: deps-test
	$(MAKE) SANITIZE=1 all unit
	tests/run-all.sh

check-host: deps-test
	$(MAKE) SANITIZE=1 all unit
	LAB=skip tests/run-all.sh

deps-test:
	@scripts/install-deps.sh all

demo:
	@scripts/install-deps.sh all
	$(MAKE) all
	tests/lab/demo.sh

install: $(BIN)
	install -D -m 0755 $(BIN) $(DESTDIR)$(SBINDIR)/rdmadiag
	install -d $(DESTDIR)$(MANDIR)/man8
	install -m 0644 Documentation/*.8 $(DESTDIR)$(MANDIR)/man8/
	install -D -m 0644 completions/rdmadiag.bash $(DESTDIR)$(BASHCOMPDIR)/rdmadiag
	install -D -m 0644 completions/_rdmadiag $(DESTDIR)$(ZSHCOMPDIR)/_rdmadiag
	install -d $(DESTDIR)$(JSONDIR)
	install -m 0644 Documentation/json/*.schema.json $(DESTDIR)$(JSONDIR)/

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/rdmadiag $(DESTDIR)$(BASHCOMPDIR)/rdmadiag $(DESTDIR)$(ZSHCOMPDIR)/_rdmadiag
	rm -rf $(DESTDIR)$(JSONDIR)
	for f in Documentation/*.8; do rm -f $(DESTDIR)$(MANDIR)/man8/$$(basename $$f); done

deb:
	scripts/build-deb.sh

clean:
	rm -f $(BIN) $(SRC_DIRS:=/*.o) $(SRC_DIRS:=/*.d) \
	      $(UNIT_BINS) tests/unit/*.d $(LIB) $(FLAGS_FILE) $(TEST_PROGS) tests/tools/*.d tests/helpers/*.d

.PHONY: all check check-host deps-build deps-test demo deb install uninstall clean unit FORCE
FORCE:

-include $(wildcard $(SRC_DIRS:=/*.d) tests/unit/*.d)

# Builds the netlink part of hand-made test fixtures (tests/fixtures/make-handmade.sh).
tests/tools/nlfixture: tests/tools/nlfixture.c
	$(Q)$(CC) -O2 -g -std=gnu11 -Wall -Wextra -Werror $(PKG_CFLAGS) -o $@ $< $(PKG_LIBS)

# ---- fuzzing (fuzz/README.md) ----
# libFuzzer targets, built with clang into build/fuzz (own objects: the main
# build keeps its compiler and flags). `make fuzz` runs each for FUZZ_TIME s.
FUZZ_CC ?= clang
FUZZ_TIME ?= 60
FUZZ_TARGETS := nl_reply pathproto cmdline sysfs
FUZZ_DIR := build/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
# STRICT_OPT_LOOKUP as in the SANITIZE=1 build: reading an undeclared option aborts.
FUZZ_CFLAGS := -O1 -g -std=gnu11 -Wall -Wextra -Werror -Wno-missing-field-initializers \
	-Wno-gnu-variable-sized-type-not-at-end -MMD -MP $(FUZZ_SAN) -DSTRICT_OPT_LOOKUP
FUZZ_OBJS := $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(LIB_SRCS) rdmadiag/main.c fuzz/fuzz_common.c)
FUZZ_BINS := $(patsubst %,$(FUZZ_DIR)/%_fuzz,$(FUZZ_TARGETS)) $(FUZZ_DIR)/gen_pathproto_seeds \
	$(FUZZ_DIR)/gen_res_fixture

# main() of the program is called by the command-line target.
$(FUZZ_DIR)/obj/rdmadiag/main.o: FUZZ_EXTRA := -Dmain=rdmadiag_main

$(FUZZ_DIR)/obj/%.o: %.c
	$(call say,FUZZCC)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(FUZZ_EXTRA) -c -o $@ $<

$(FUZZ_DIR)/librdmadiag.a: $(FUZZ_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(FUZZ_DIR)/%_fuzz: fuzz/%_fuzz.c $(FUZZ_DIR)/librdmadiag.a
	$(call say,FUZZLD)
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer \
		-DFUZZ_FIXTURE_DIR='"$(CURDIR)/tests/fixtures/lab-rxe"' -o $@ $< $(FUZZ_DIR)/librdmadiag.a $(LDLIBS)

$(FUZZ_DIR)/gen_pathproto_seeds: fuzz/gen_pathproto_seeds.c $(FUZZ_DIR)/librdmadiag.a
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_DIR)/librdmadiag.a $(LDLIBS)

# Seed generators (fuzz/seeds.sh); built here so the main build's flags stay.
$(FUZZ_DIR)/gen_res_fixture: tests/tools/gen_res_fixture.c
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(CPPFLAGS) -O1 -g -o $@ $< -lmnl

fuzz-build: deps-test
	$(MAKE) $(FUZZ_BINS)

# Every target for FUZZ_TIME seconds, then the saved crashes as regressions.
fuzz: fuzz-build
	FUZZ_TIME=$(FUZZ_TIME) fuzz/run.sh

# ---- valgrind (tests/valgrind.sh) ----
# A plain build (no sanitizer: valgrind cannot run ASan binaries) in its own
# directory, so it never replaces the sanitized objects of `make check`.
VG_DIR := build/valgrind
VG_OBJS := $(patsubst %.c,$(VG_DIR)/%.o,$(LIB_SRCS) rdmadiag/main.c)

$(VG_DIR)/%.o: %.c
	$(call say,VGCC)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) -O1 -g -std=gnu11 -Wall -Wextra -Werror -Wno-missing-field-initializers \
		-Wno-format-truncation -MMD -MP -c -o $@ $<

$(VG_DIR)/bin/rdmadiag: $(VG_OBJS)
	$(call say,LD)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -o $@ $^ $(LDLIBS)

valgrind-build: $(VG_DIR)/bin/rdmadiag

.PHONY: fuzz fuzz-build valgrind-build
-include $(shell find $(FUZZ_DIR)/obj $(VG_DIR) -name '*.d' 2>/dev/null)
