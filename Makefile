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

CC ?= gcc
PKGS := libmnl libibverbs librdmacm libkmod
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

CFLAGS ?= -O2 -g
# snprintf truncation is how this code bounds strings on purpose, hence no format-truncation.
CFLAGS += -std=gnu11 -Wall -Wextra -Werror -Wno-missing-field-initializers -Wno-format-truncation -MMD -MP
CPPFLAGS += $(PKG_CFLAGS) -D_GNU_SOURCE
LDLIBS += $(PKG_LIBS) -lm

ifeq ($(SANITIZE),1)
CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif

ifeq ($(V),1)
Q :=
say = @true
else
Q := @
say = @echo "  $(1)	$@"
endif

# Everything but main.c goes into a static library the unit tests link too.
LIB_SRCS := $(wildcard netlink/*.c verbs/*.c) $(filter-out rdmadiag/main.c,$(wildcard rdmadiag/*.c))
LIB_OBJS := $(LIB_SRCS:.c=.o)
BIN := rdmadiag/rdmadiag
LIB := build/librdmadiag.a

# Programs the tests run: fixture generator (host) and QP holder (lab).
TEST_PROGS := tests/tools/gen_res_fixture tests/tools/nl_qp_dump tests/helpers/qp_holder

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

unit: $(UNIT_BINS)

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

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/rdmadiag $(DESTDIR)$(BASHCOMPDIR)/rdmadiag $(DESTDIR)$(ZSHCOMPDIR)/_rdmadiag
	for f in Documentation/*.8; do rm -f $(DESTDIR)$(MANDIR)/man8/$$(basename $$f); done

deb:
	scripts/build-deb.sh

clean:
	rm -f $(BIN) rdmadiag/*.o netlink/*.o verbs/*.o rdmadiag/*.d netlink/*.d verbs/*.d \
	      $(UNIT_BINS) tests/unit/*.d $(LIB) $(FLAGS_FILE) $(TEST_PROGS) tests/tools/*.d tests/helpers/*.d

.PHONY: all check check-host deps-build deps-test demo deb install uninstall clean unit FORCE
FORCE:

-include $(wildcard rdmadiag/*.d netlink/*.d verbs/*.d tests/unit/*.d)

# Builds the netlink part of hand-made test fixtures (tests/fixtures/make-handmade.sh).
tests/tools/nlfixture: tests/tools/nlfixture.c
	$(Q)$(CC) -O2 -g -std=gnu11 -Wall -Wextra -Werror $(PKG_CFLAGS) -o $@ $< $(PKG_LIBS)
