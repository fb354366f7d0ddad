# SPDX-License-Identifier: Apache-2.0
# Thin wrapper over Meson + Ninja.  Every target sets up what it needs first
# (tools/deps.sh: apt-get as root, else the command to run).  Where make
# itself is missing, tools/bootstrap.sh TARGET installs it too, then runs
# make TARGET: the README's two commands are `sh tools/bootstrap.sh run` and
# `sh tools/bootstrap.sh test`.  Tests need cmocka (libcmocka-dev); build/ is
# set up again by itself when it was configured before cmocka was installed.
#
#   make / make build   build build/ (with --werror): the tool, and the tests
#                       whose dependencies are installed
#   make run            build, then `env` on the bundled example recipe
#   make test           all suites in build/ and in build-asan/ (ASan+UBSan),
#                       ending with the line "N passed, N failed"
#   make valgrind       the unit suites under valgrind
#   make fuzz           libFuzzer targets, FUZZ_SECONDS (10) each, build-fuzz/
#   make bench          bench/run.sh
#   make image          the agent's image from Containerfile with buildah, on a
#                       Debian 12 root made with mmdebstrap, then `agent --once`
#                       in it on a test sysroot (tools/build-image.sh; IMAGE_TAG)
#   make lint           shellcheck over every shell script (tools/shell-scripts.sh),
#                       the include rules (tools/check-includes.py), cppcheck,
#                       clang-format (format-check)
#   make format-check   clang-format --dry-run over the C sources (.clang-format; in lint)
#   make format         reformat them in place
#   make install        the binary, kubectl-interconnect, the man page and the
#                       bash/zsh completions under PREFIX (default /usr/local,
#                       for every call that names no PREFIX), staged under
#                       DESTDIR when set; builds only what it installs
#   make clean          remove build/, build-asan/, build-fuzz/

BUILD ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
EXAMPLE ?= examples/recipes/llama-70b-disagg-ib
FUZZ_SECONDS ?= 10
MESON_TEST_ARGS ?=

SANITIZER_ENV = \
	ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1:detect_leaks=1:print_summary=1 \
	UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1:print_summary=1 \
	LSAN_OPTIONS=print_suppressions=0
VALGRIND = valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
	--track-origins=yes --quiet

.PHONY: all build deps deps-test setup-build setup-asan run test test-build test-asan \
	valgrind fuzz bench image lint format-check format clean check install

all: build

deps:
	@sh tools/deps.sh build

deps-test:
	@sh tools/deps.sh test

comma := ,
# $(call setup,DIR,MESON-OPTIONS): meson setup DIR, unless it is set up
# already; set up again when DIR was configured while cmocka was missing and
# cmocka is installed now (else its tests would stay out of the build).
# Phony targets, so that every make call checks; after deps, so that meson
# sees what deps.sh has just installed.
define setup
	@if [ ! -f $(1)/build.ninja ]; then \
		echo "meson setup $(1) --werror $(2)"; \
		meson setup $(1) --werror $(2); \
	elif ! grep -q '"name": "cmocka"' $(1)/meson-info/intro-dependencies.json 2>/dev/null && \
		pkg-config --exists cmocka 2>/dev/null; then \
		echo "$(1)/ was configured without cmocka, which is installed now: meson setup --reconfigure $(1)"; \
		meson setup --reconfigure $(1); \
	fi
endef

setup-build: deps
	$(call setup,$(BUILD),)

setup-asan: deps
	$(call setup,$(ASAN_BUILD),-Db_sanitize=address$(comma)undefined -Db_lundef=false)

# PREFIX: /usr/local unless this call names another (the build is then
# configured for it; a later call without PREFIX goes back to /usr/local);
# DESTDIR stages the files (packaging), as every autotools and meson project
# does.  Only the targets meson installs are built (tools/install-targets.py
# lists them from meson's introspection), not the tests.
PREFIX ?= /usr/local
DESTDIR ?=
install: setup-build
	@echo "make install: PREFIX=$(PREFIX)$(if $(DESTDIR), staged under DESTDIR=$(DESTDIR))"
	@if [ "$$(python3 tools/install-targets.py --prefix $(BUILD))" != "$(PREFIX)" ]; then \
		echo "meson configure $(BUILD) -Dprefix=$(PREFIX)"; \
		meson configure $(BUILD) -Dprefix="$(PREFIX)"; \
	fi
	@ninja -C $(BUILD) build.ninja >/dev/null
	ninja -C $(BUILD) $$(python3 tools/install-targets.py $(BUILD))
	meson install -C $(BUILD) --no-rebuild --quiet $(if $(DESTDIR),--destdir "$(abspath $(DESTDIR))")

build: setup-build
	ninja -C $(BUILD)

# The tool's exit code is the verdict (1 degraded, 2 blocked, 3 unknown), not
# a failure of `make run`; only a usage error or a crash fails it.  It builds
# what `make` builds, so that the README's first command, run by CI on a
# fresh root with no test package, proves the build needs none.
run: build
	@rc=0; ./$(BUILD)/check_interconnect env $(EXAMPLE) || rc=$$?; \
	case $$rc in \
	0) m="ready: the transport can be trusted";; \
	1) m="degraded: usable, not trusted";; \
	2) m="blocked: fix the failures first";; \
	3) m="unknown: critical checks could not be made";; \
	64) m="usage error";; \
	*) m="crashed or killed";; \
	esac; \
	echo "(exit $$rc: $$m)"; \
	[ $$rc -le 3 ]

# Both runs always happen (a failure in the first does not hide the second);
# stale test logs are removed first so the summary never counts an old run.
test: deps-test
	@rc=0; \
	$(MAKE) --no-print-directory test-build || rc=1; \
	$(MAKE) --no-print-directory test-asan || rc=1; \
	python3 tools/test-summary.py $(BUILD) $(ASAN_BUILD) || rc=1; \
	exit $$rc

check: test

test-build: setup-build
	@rm -f $(BUILD)/meson-logs/testlog.json
	ninja -C $(BUILD)
	meson test -C $(BUILD) --print-errorlogs $(MESON_TEST_ARGS)

test-asan: setup-asan
	@rm -f $(ASAN_BUILD)/meson-logs/testlog.json
	ninja -C $(ASAN_BUILD)
	$(SANITIZER_ENV) meson test -C $(ASAN_BUILD) --print-errorlogs $(MESON_TEST_ARGS)

valgrind: deps-test
	@$(MAKE) --no-print-directory setup-build
	ninja -C $(BUILD)
	meson test -C $(BUILD) --suite unit --print-errorlogs --timeout-multiplier 10 \
		--wrapper '$(VALGRIND)'

$(FUZZ_BUILD)/build.ninja:
	CC=clang meson setup $(FUZZ_BUILD) -Dfuzzing=true -Dtests=disabled \
		-Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized

fuzz: $(FUZZ_BUILD)/build.ninja
	ninja -C $(FUZZ_BUILD)
	FUZZ_SECONDS=$(FUZZ_SECONDS) sh fuzz/run.sh $(FUZZ_BUILD)

bench: build
	sh bench/run.sh $(BUILD)

# Not in `make test`: it builds the project again inside the image (minutes).
image:
	sh tools/build-image.sh $(IMAGE_TAG)

# SC1091: benches source bench/lib.sh through a computed path.
# cppcheck: tools/cppcheck.supp names, one per line, the findings not fixed
# yet (each with its file); nothing else is suppressed.
CPPCHECK = cppcheck --enable=warning,style,performance --std=c11 --quiet --inline-suppr \
	--error-exitcode=1 -D_GNU_SOURCE -Isrc --suppressions-list=tools/cppcheck.supp \
	--template='{file}:{line}: {severity}: {id}: {message}'
lint:
	sh tools/shell-scripts.sh | xargs shellcheck --exclude=SC1091
	python3 tools/check-includes.py
	$(CPPCHECK) src
	clang-format --dry-run -Werror $(FORMAT_FILES)

# C sources under the house style (.clang-format): `make lint` fails on any
# file `make format` would change.
FORMAT_FILES = $(shell git ls-files 'src/*.c' 'src/*.h' 'tests/*.c' 'tests/*.h' 'fuzz/*.c' 'fuzz/*.h')
format-check:
	clang-format --dry-run -Werror $(FORMAT_FILES)

format:
	clang-format -i $(FORMAT_FILES)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
