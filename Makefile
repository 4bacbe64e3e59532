# One build for the judge.  `make` builds everything into build/; `make test`
# runs the unit suite twice, plain and under AddressSanitizer + UBSan;
# `make bench` prints the speed ratios; `make install PREFIX=/usr/local`.

CC      := gcc
BUILD   ?= build
SAN     ?=
PREFIX  ?= /usr/local

ASAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SANFLAGS := $(if $(SAN),$(ASAN))
# libpq's header lives in its own folder on Debian.
PQ_CFLAGS := $(shell pkg-config --cflags libpq 2>/dev/null || echo -I/usr/include/postgresql)
CFLAGS  := -std=gnu17 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -I. $(PQ_CFLAGS) $(SANFLAGS)
LDFLAGS := $(SANFLAGS)
LDLIBS  := -lseccomp -ljansson -lcrypto -lsqlite3 -lz -lm
# libpq, libcurl and libmicrohttpd are loaded on first use, by the sonames
# of the libraries found here (judge/base/lazy_load.h): starting the judge
# would otherwise cost more than a match.
soname = $(shell objdump -p $$($(CC) -print-file-name=lib$(1).so) 2>/dev/null | sed -n 's/^ *SONAME *//p')
LAZY_SONAMES := -DJUDGE_SONAME_PQ='"$(call soname,pq)"' -DJUDGE_SONAME_CURL='"$(call soname,curl)"' \
		-DJUDGE_SONAME_MHD='"$(call soname,microhttpd)"'

# Player binaries (test attackers, shipped players) are static, never
# sanitized, and the same for every build flavour.
PLAYER_CFLAGS := -std=gnu17 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -static

# games/LIST: the one list of the games, read through scripts/games.
GAMES        := $(shell scripts/games)
COURSE_GAMES := $(shell scripts/games course)
GAME_ENTRIES := $(shell scripts/games --entries)
game_kit_entry = $(patsubst $(1):%,%,$(filter $(1):%,$(GAME_ENTRIES)))

SANDBOX_SRC := $(wildcard sandbox/*.c)
MAINS       := judge/cli/judge.c judge/cli/judge_worker.c
JUDGE_SRC   := $(filter-out $(MAINS),$(wildcard judge/*/*.c))
# Engines run in the judge; a game's kit/ and players/ go into player binaries.
# A game's rules/ (AIC2018's world) go into both.
GAMES_SRC   := $(wildcard games/*.c) $(wildcard games/*/engine/*.c) $(wildcard games/*/rules/*.c)
# The lowest layer of every part: the sandbox and the engines say what went
# wrong with it too, so their libraries carry it.
ERROR_SRC   := judge/base/error.c
TEST_SRC    := $(wildcard tests/unit/*.c)
ATTACK_SRC  := $(wildcard tests/attack/*.c)
BENCH_SRC   := $(wildcard bench/*.c)
BENCH_PLAYERS := $(patsubst bench/players/%.c,build/bench/%,$(wildcard bench/players/*.c))

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))

LIBSANDBOX := $(BUILD)/libsandbox.a
LIBJUDGE   := $(BUILD)/libjudge.a
LIBGAMES   := $(BUILD)/libgames.a
JUDGE      := $(BUILD)/judge
UNIT       := $(BUILD)/unit-tests
ATTACKS    := $(patsubst tests/attack/%.c,build/attack/%,$(ATTACK_SRC))
KITS       := $(patsubst games/%/kit,build/kits/lib%.a,$(wildcard games/*/kit))
BENCHES    := $(patsubst bench/%.c,$(BUILD)/bench-%,$(BENCH_SRC))

.PHONY: all test check browser-test bench bench-smoke install install-test course-test clean demo deps soak check-layout FORCE
all: $(JUDGE) $(JUDGE)-worker $(KITS)

deps:
	scripts/deps.sh

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@
# The forwarders into them, one file per part that calls them.
$(call obj,$(wildcard judge/*/lazy_*.c)): CFLAGS += $(LAZY_SONAMES)

# Archives are made afresh: two games have objects of one name (params.o),
# and `ar r` on an old archive would replace the wrong one.
$(LIBSANDBOX): $(call obj,$(SANDBOX_SRC) $(ERROR_SRC))
	rm -f $@ && ar rcs $@ $^
$(LIBJUDGE): $(call obj,$(JUDGE_SRC)) $(BUILD)/obj/db/schema.o $(BUILD)/obj/db/postgres/schema.o \
		$(BUILD)/obj/web/files.o $(BUILD)/obj/version.o
	rm -f $@ && ar rcs $@ $^

# judge_version (judge/base/version.h): `git describe` at build time, or
# VERSION=... on the command line; the file is rewritten only when the
# version changes, so an unchanged tree relinks nothing.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo unknown)
$(BUILD)/obj/version.c: FORCE
	@mkdir -p $(dir $@)
	@v='const char judge_version[] = "$(VERSION)";'; \
	  [ -f $@ ] && [ "$$(cat $@)" = "$$v" ] || echo "$$v" > $@
FORCE:

# The store's schema and its migrations, one source each for both
# dialects (db/schema.sql is version 1, db/migrations/NNN.sql the next ones
# in order; db/README.md): db/dialect.awk writes each dialect's SQL under
# build/db/sqlite/ and build/db/postgres/ (whatever BUILD is: the unit suite
# reads them there), compiled in as C strings: an installed judge needs no
# file to create or upgrade its database.  $(call schema_c,SCHEMA,MIGRATIONS,
# PREFIX) writes PREFIX_schema_sql[] and PREFIX_migrations[] (NULL-terminated).
c_string = sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $(1)
define schema_c
	@mkdir -p $(dir $@)
	{ echo 'const char $(3)_schema_sql[] ='; $(call c_string,$(1)); echo ';'; } > $@
	echo 'const char *const $(3)_migrations[] = {' >> $@
	for m in $(2); do $(call c_string,$$m); echo ','; done >> $@
	echo '0 };' >> $@
endef
ifneq ($(wildcard db/postgres),)
$(error db/postgres/ is the old second copy of the schema: merge its files into db/schema.sql and db/migrations/ as db/README.md says, then remove it)
endif
MIGRATIONS := $(sort $(wildcard db/migrations/*.sql))
SQL_sqlite := $(patsubst db/%,build/db/sqlite/%,db/schema.sql $(MIGRATIONS))
SQL_postgres := $(patsubst db/%,build/db/postgres/%,db/schema.sql $(MIGRATIONS))
dialect_sql = @mkdir -p $(dir $@) && awk -v dialect=$(1) -f db/dialect.awk $< > $@.tmp && mv $@.tmp $@
build/db/sqlite/%.sql: db/%.sql db/dialect.awk
	$(call dialect_sql,sqlite)
build/db/postgres/%.sql: db/%.sql db/dialect.awk
	$(call dialect_sql,postgres)
$(BUILD)/obj/db/schema.c: $(SQL_sqlite)
	$(call schema_c,$<,$(wordlist 2,$(words $^),$^),store)
$(BUILD)/obj/db/postgres/schema.c: $(SQL_postgres)
	$(call schema_c,$<,$(wordlist 2,$(words $^),$^),store_pg)

# The viewer's pages, styles and scripts (web/), compiled in the same way:
# web_files[] in judge/replay/web_page.h, named by their path under web/.
# Each game draws its own board: games/GAME/viewer.js is built in as
# viewer/games/GAME.js, and the page takes every one of them.
WEB_FILES := $(sort $(shell find web -type f \( -name '*.html' -o -name '*.css' -o -name '*.js' \)))
GAME_VIEWERS := $(sort $(wildcard games/*/viewer.js))
$(BUILD)/obj/web/files.c: $(WEB_FILES) $(GAME_VIEWERS) Makefile
	@mkdir -p $(dir $@)
	{ echo '#include "judge/replay/web_page.h"'; echo 'const struct web_file web_files[] = {'; \
	  for f in $(WEB_FILES); do echo "{ \"$${f#web/}\","; $(call c_string,$$f); echo '},'; done; \
	  for f in $(GAME_VIEWERS); do g=$${f#games/}; echo "{ \"viewer/games/$${g%/viewer.js}.js\","; \
	    $(call c_string,$$f); echo '},'; done; \
	  echo '{ 0, 0 } };'; } > $@
$(BUILD)/obj/%.o: $(BUILD)/obj/%.c
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@
$(LIBGAMES): $(call obj,$(GAMES_SRC) $(ERROR_SRC)) $(BUILD)/obj/games/list.o
	rm -f $@ && ar rcs $@ $^
# games/LIST compiled in: each game's engine NAME_game and what the list
# says of it (games/registry.c reads them); for the fuzz targets too.
%/games/list.c: games/LIST scripts/games
	@mkdir -p $(dir $@)
	{ echo '#include "games/game.h"'; \
	  $(foreach g,$(GAMES),echo 'extern const struct game $(g)_game;';) \
	  echo 'const struct game *const game_registry[] = {'; \
	  $(foreach g,$(GAMES),echo '&$(g)_game,';) echo '0 };'; \
	  echo 'const struct game_entry game_entries[] = {'; \
	  $(foreach g,$(GAMES),echo '{ &$(g)_game, "$(call game_kit_entry,$(g))", \
	    $(if $(filter $(g),$(COURSE_GAMES)),true,false) },';) echo '{ 0 } };'; } > $@

$(JUDGE): $(call obj,judge/cli/judge.c) $(LIBJUDGE) $(LIBGAMES) $(LIBSANDBOX)
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@
$(JUDGE)-worker: $(call obj,judge/cli/judge_worker.c) $(LIBJUDGE) $(LIBGAMES) $(LIBSANDBOX)
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(UNIT): $(call obj,$(TEST_SRC)) $(LIBJUDGE) $(LIBGAMES) $(LIBSANDBOX)
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -lcriterion -o $@

# The viewer page of a replay file, for the browser tests and the benchmark.
$(BUILD)/viewer-page: $(call obj,tests/browser/page.c) $(LIBJUDGE) $(LIBGAMES) $(LIBSANDBOX)
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

build/attack/%: tests/attack/%.c
	@mkdir -p $(dir $@)
	$(CC) $(PLAYER_CFLAGS) -I. $< -o $@ -lm

# A game's kit (the runtime every player of that game links with).
# -Igames/kit: the course games' headers include "course.h", which the
# compile step copies beside them.
KIT_CFLAGS := $(filter-out -static,$(PLAYER_CFLAGS)) -I. -Igames/kit
build/kitobj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(KIT_CFLAGS) -MMD -MP -c $< -o $@
.SECONDARY:
.SECONDEXPANSION:
kitobjs = $(patsubst %.c,build/kitobj/%.o,$(wildcard games/$(1)/kit/*.c games/$(1)/rules/*.c))
build/kits/lib%.a: $$(call kitobjs,$$*)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# AIC2018's unit code is compiled as the judge compiles a contestant's
# file: gcc -S with r15 reserved, the energy rewrite (games/aic2018/engine/
# energy_asm.h, as a filter: build/aic-energy-asm), then the assembler.
# $(1): the source, $(2): the object, $(3): more flags.
AIC_ENERGY_ASM := build/aic-energy-asm
$(AIC_ENERGY_ASM): games/aic2018/tools/energy_asm_main.c games/aic2018/engine/energy_asm.c \
		judge/base/error.c judge/base/error.h \
		games/aic2018/engine/energy_asm.h
	@mkdir -p $(dir $@)
	$(CC) $(PLAYER_CFLAGS) -I. $(filter %.c,$^) -o $@
define aic_unit_object
	$(CC) $(KIT_CFLAGS) -ffixed-r15 $(3) -S $(1) -o $(2).s
	$(AIC_ENERGY_ASM) $(2).s $(2).counted.s
	$(CC) -c $(2).counted.s -o $(2)
	rm -f $(2).s $(2).counted.s
endef

# The kits' own tests (tests/kit/): built like the players (never
# sanitized: a coroutine's stack switch is not for AddressSanitizer's eyes),
# linked with the kit objects they test, not with a kit's main().
KIT_TEST_SRC := $(wildcard tests/kit/*.c)
# tests/kit/player/ holds unit bodies compiled as a contestant's file is.
KIT_TEST_OBJS := $(patsubst %,build/kitobj/games/aic2018/kit/%.o,coro energy libc)
KIT_TEST_PLAYER := $(wildcard tests/kit/player/*.c)
KIT_TEST_PLAYER_OBJS := $(patsubst %.c,build/kit-test-player/%.o,$(notdir $(KIT_TEST_PLAYER)))
build/kit-test-player/%.o: tests/kit/player/%.c $(AIC_ENERGY_ASM)
	@mkdir -p $(dir $@)
	$(call aic_unit_object,$<,$@)
build/kit-tests: $(KIT_TEST_SRC) $(KIT_TEST_OBJS) $(KIT_TEST_PLAYER_OBJS)
	$(CC) $(KIT_CFLAGS) $(KIT_TEST_SRC) $(KIT_TEST_OBJS) $(KIT_TEST_PLAYER_OBJS) -lcriterion -lm -o $@

# AIC2018's kit keeps only the player API global (ld -r, then objcopy): a
# contestant's file cannot reach the scheduler, the world copy or the rules,
# whose direct calls would spend no energy (the link says "undefined").
# __aic_*: the counted C library and the pause the rewritten code calls.
AIC_KIT_GLOBALS := main run player_name __aic_* uc_* loc_* dir_* type_* team_*
build/kits/libaic2018.a: $(call kitobjs,aic2018)
	@mkdir -p $(dir $@)
	ld -r $^ -o $@.o
	objcopy -w $(foreach s,$(AIC_KIT_GLOBALS),--keep-global-symbol='$(s)') $@.o
	rm -f $@ && ar rcs $@ $@.o && rm -f $@.o

build/bench/%: bench/players/%.c games/kit/io.h games/kit/frame.h
	@mkdir -p $(dir $@)
	$(CC) $(PLAYER_CFLAGS) -I. $< -o $@ -lm

# The match benchmark also plays each game's match with the players linked
# into its own process: build/inproc/GAME-I.o is copy I of GAME's Demo, its
# object and the kit's combined, every symbol made local but the kit's two
# entry points (INPROC_ENTRY_GAME_start, _turn), renamed inproc_GAME_start_I
# and inproc_GAME_turn_I.  The fidelity benchmark links the original
# engines' Demos the same way (bench/originals/GAME.c, build/inproc-orig/,
# renamed orig_GAME_start_I and orig_GAME_turn_I).
INPROC_GAMES := $(COURSE_GAMES)
INPROC := $(foreach g,$(INPROC_GAMES),$(foreach i,0 1 2 3,build/inproc/$(g)-$(i).o))
INPROC_ORIG := $(foreach g,$(patsubst bench/originals/%.c,%,$(wildcard bench/originals/*.c)),\
		$(foreach i,0 1 2 3,build/inproc-orig/$(g)-$(i).o))
inproc_game = $(firstword $(subst -, ,$(1)))
# $(1): the prefix of the renamed entry points.
define inproc_object
	@mkdir -p $(dir $@)
	$(CC) $(KIT_CFLAGS) -fvisibility=hidden -DKIT_NO_MAIN -c $< -o $@.kit
	$(CC) $(KIT_CFLAGS) -fvisibility=hidden -I$(dir $<) -c $(word 2,$^) -o $@.player
	ld -r $@.kit $@.player -o $@.both
	objcopy --localize-hidden \
		$(foreach f,start turn,--redefine-sym $(call game_kit_entry,$(call inproc_game,$*))_$(f)=$(1)_$(subst -,_$(f)_,$*)) \
		$@.both $@
	rm -f $@.kit $@.player $@.both
endef
build/inproc/%.o: games/$$(call inproc_game,$$*)/kit/runtime.c games/$$(call inproc_game,$$*)/players/AIDemo.c
	$(call inproc_object,inproc)
build/inproc-orig/%.o: games/$$(call inproc_game,$$*)/kit/runtime.c bench/originals/$$(call inproc_game,$$*).c
	$(call inproc_object,orig)
# AIC2018's Demo, two copies: its kit is several files and its player is
# compiled as the judge compiles it (instrumented).
AIC_INPROC := build/inproc/aic2018-0.o build/inproc/aic2018-1.o
AIC_KIT_SRC := $(wildcard games/aic2018/kit/*.c games/aic2018/rules/*.c)
build/inproc/aic2018-%.o: $(AIC_KIT_SRC) games/aic2018/players/AIDemo.c $(AIC_ENERGY_ASM)
	@mkdir -p $@.d
	for f in $(AIC_KIT_SRC); do \
		$(CC) $(KIT_CFLAGS) -fvisibility=hidden -DKIT_NO_MAIN -c $$f \
			-o $@.d/$$(echo $$f | tr / _).o || exit 1; done
	$(call aic_unit_object,games/aic2018/players/AIDemo.c,$@.d/player.o,\
		-fvisibility=hidden -Igames/aic2018/kit)
	ld -r $@.d/*.o -o $@.both
	objcopy --localize-hidden --redefine-sym $(call game_kit_entry,aic2018)_start=inproc_aic2018_start_$* \
		--redefine-sym $(call game_kit_entry,aic2018)_turn=inproc_aic2018_turn_$* $@.both $@
	rm -rf $@.d $@.both
# bench/match.c plays every course game in-process: INPROC_GAMES(X) is
# X(GAME) for each.
$(call obj,bench/match.c): CFLAGS += -D'INPROC_GAMES(X)=$(foreach g,$(INPROC_GAMES),X($(g)))'
$(call obj,bench/match.c): games/LIST
BENCH_EXTRA_aic2018 := $(AIC_INPROC)
BENCH_EXTRA_match := $(INPROC)
BENCH_EXTRA_fidelity := $(INPROC) $(INPROC_ORIG) $(BUILD)/obj/bench/fidelity/starwar.o
# The queue and scheduling benchmarks start their own PostgreSQL server, as
# the unit suite does.
BENCH_EXTRA_aic_switch := build/kitobj/games/aic2018/kit/coro.o
BENCH_EXTRA_aic_energy := $(KIT_TEST_OBJS) $(KIT_TEST_PLAYER_OBJS)
BENCH_EXTRA_queue := $(BUILD)/obj/tests/unit/pg_testlib.o
BENCH_EXTRA_sched := $(BUILD)/obj/tests/unit/pg_testlib.o
BENCH_EXTRA_scale := $(BUILD)/obj/tests/unit/pg_testlib.o

$(BUILD)/bench-%: $(BUILD)/obj/bench/%.o $$(BENCH_EXTRA_$$*) $(LIBJUDGE) $(LIBGAMES) $(LIBSANDBOX)
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# The unit suite runs from the repository root; it finds the programs it
# needs through these variables.
check: $(UNIT) $(JUDGE) $(JUDGE)-worker $(ATTACKS) $(KITS) build/kit-tests
	build/kit-tests --jobs 2
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	JUDGE_BIN=$(JUDGE) ATTACK_DIR=build/attack $(UNIT) --jobs 2

test: deps
	$(MAKE) check
	$(MAKE) check-layout
	$(MAKE) install-test
	$(MAKE) browser-test
	$(MAKE) check BUILD=build/asan SAN=1
	$(MAKE) -j2 fuzz-smoke
	$(MAKE) soak
	$(MAKE) course-test
	$(MAKE) bench-smoke

# No two files, and no two parts of judge/, depend on each other in a loop;
# only judge/store/ speaks SQL (from the objects' symbols and the includes).
check-layout: all
	scripts/check-layout $(BUILD)

# The replay viewer in headless Chromium, every game; screenshots of each
# game at round 1 and the last round go to build/screenshots/.
# Then the service's pages (tests/browser/serve.py): uploads, the pages,
# names full of markup shown as text; then a player's debug marks toggled
# on and off and the CPU plot (tests/browser/marks.py); then a contestant's loop
# (tests/browser/loop.py): upload two versions, challenge Dummy, watch the
# debug marks, find the losses, download and compare the source; then the
# organisers' people (tests/browser/people.py): disqualify a player picked
# from the list, reinstate it, the history; a token revoked only once
# confirmed; a game's page of rules, header and limits; then the
# organiser's plagiarism news, confirm and dismiss (tests/browser/plag.py).
browser-test: $(JUDGE) $(JUDGE)-worker $(BUILD)/viewer-page $(KITS)
	python3 tests/browser/run.py --judge $(JUDGE) --page $(BUILD)/viewer-page
	python3 tests/browser/serve.py --judge $(JUDGE)
	python3 tests/browser/tournament.py --judge $(JUDGE)
	python3 tests/browser/loop.py --judge $(JUDGE)
	python3 tests/browser/marks.py --judge $(JUDGE)
	python3 tests/browser/people.py --judge $(JUDGE)
	python3 tests/browser/plag.py --judge $(JUDGE)

# Workers killed with SIGKILL at random over a few hundred jobs: nothing
# lost, nothing done twice, ratings equal to a recompute; on SQLite, then
# on a private PostgreSQL server with four workers, each with its own
# compile cache as four machines would have.
# A course from uploads to grades on PostgreSQL, workers killed at random,
# re-checked by an implementation of the rules of its own (tests/course/;
# `tests/course/simulate.sh 300` for a full-size course).
course-test: all
	tests/course/simulate.sh 40

# `make install` twice over a running installation, then the organiser's
# quick start (docs/organisers.md) from a fresh clone, as root (tests/install/).
install-test: all
	tests/install/upgrade.sh
	tests/install/quickstart.sh

soak: all
	scripts/soak.sh 30
	scripts/soak.sh --postgres 30

# The plagiarism benchmark's disguised copies (Python with pycparser, from
# scripts/deps.sh), remade when the script or a player changes.
PLAG_COPIES := build/plag/copies/.made
$(PLAG_COPIES): bench/plag/disguise.py bench/plag/make_copies.sh \
		$(wildcard bench/plag/players/*.c) games/dominator/players/AIDummy.c
	rm -rf build/plag/copies
	bench/plag/make_copies.sh -o build/plag/copies
	touch $@

# Each bench/NAME.c is one program; every one prints its own ratios.  The
# viewer's speed in a browser is measured by bench/viewer.py.
BENCH_NEEDS := $(BENCHES) $(BENCH_PLAYERS) $(KITS) $(JUDGE) $(JUDGE)-worker
define bench_every
	@for b in $(BENCHES); do echo "== $$b"; $$b || exit 1; done
	@echo "== bench/viewer.py"; bench/viewer.py $(JUDGE)
	@echo "== bench/worker_store.sh"; bench/worker_store.sh $(JUDGE)
	@echo "== bench/course.sh"; bench/course.sh $(JUDGE)
endef
bench: deps $(BENCH_NEEDS) $(PLAG_COPIES)
	$(bench_every)

# A quick pass of every benchmark (in `make test`): once each, at small
# sizes (BENCH_QUICK=1, bench/bench.h), no figure checked, so that a
# benchmark that no longer runs is seen at once.  The plagiarism benchmark
# reads a few copies of three players.
PLAG_QUICK_COPIES := build/plag/quick/.made
$(PLAG_QUICK_COPIES): bench/plag/disguise.py bench/plag/make_copies.sh \
		bench/plag/players/AIAlder.c bench/plag/players/AIBirch.c \
		games/dominator/players/AIDummy.c
	rm -rf build/plag/quick
	bench/plag/make_copies.sh -o build/plag/quick -n 1 -l "1 8" $(filter %.c,$^)
	touch $@
bench-smoke: export BENCH_QUICK := 1
bench-smoke: export PLAG_COPIES := build/plag/quick
bench-smoke: $(BENCH_NEEDS) $(PLAG_QUICK_COPIES)
	$(bench_every)

demo: deps all
	scripts/demo.sh

# The data the programs read relative to their working directory, the
# upload script and the documentation.  The engines' and kits' sources, the
# error type the engines fill and games/local/ are what `judge kit` packs
# into a student kit.
DATA = config $(wildcard games/*.h games/*.c games/*/*.h games/*/kit/* games/*/engine/*) \
	judge/base/error.h judge/base/error.c \
	$(wildcard games/local/*.* games/local/Makefile games/local/upload games/local/openssl/*.h) \
	$(wildcard games/*/players/*.c) \
	$(KITS) scripts/upload \
	README.md docs
# systemd units, with the installed programs' paths filled in.
UNITS = $(wildcard dist/systemd/*.service)
# The shipped data is written whole beside the old one, then swapped in:
# an upgrade leaves no file of the old version behind and never nests a
# folder in its old copy.  The organiser's own settings live outside the
# prefix (the working directory's config/judge.json, or --config).
SHARE = $(DESTDIR)$(PREFIX)/share/judge
install: all
	install -d $(DESTDIR)$(PREFIX)/bin
	rm -rf $(SHARE).new $(SHARE).old
	install -d $(SHARE).new/systemd
	for f in $(DATA); do \
		mkdir -p $(SHARE).new/$$(dirname $$f) && \
		cp -R $$f $(SHARE).new/$$f || exit 1; \
	done
	for u in $(UNITS); do \
		sed -e 's|@BIN@|$(PREFIX)/bin|g' -e 's|@SHARE@|$(PREFIX)/share/judge|g' $$u \
			> $(SHARE).new/systemd/$$(basename $$u) || exit 1; \
	done
	if [ -d $(SHARE) ]; then mv $(SHARE) $(SHARE).old; fi
	mv $(SHARE).new $(SHARE)
	rm -rf $(SHARE).old
	install -m 755 $(JUDGE) $(DESTDIR)$(PREFIX)/bin/judge
	install -m 755 $(JUDGE)-worker $(DESTDIR)$(PREFIX)/bin/judge-worker

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj build/kitobj -name '*.d' 2>/dev/null)

# libFuzzer targets: `make fuzz` (long), `make fuzz-smoke` (in make test).
include fuzz.mk
