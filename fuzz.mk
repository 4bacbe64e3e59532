# fuzz.mk - libFuzzer targets (tests/fuzz/), included by the Makefile.
#
# `make fuzz-smoke` (part of `make test`) builds every target and runs each
# for FUZZ_SMOKE_TIME seconds on a fresh copy of its seed corpus; `make fuzz`
# runs each for FUZZ_TIME seconds and keeps what it finds in
# build/fuzz/corpus/ for the next run.  A crash, a leak, a timeout or an
# out-of-memory fails the build; the input is saved in build/fuzz/artifacts/
# and replays with `build/fuzz/NAME build/fuzz/artifacts/FILE`.  The targets
# run two at a time under `make -j2`.
#
# libFuzzer needs clang and its runtime (Debian: clang, libclang-rt-14-dev);
# gcc has no -fsanitize=fuzzer.

FUZZ_CC         ?= clang
FUZZ_SMOKE_TIME ?= 10
FUZZ_TIME       ?= 600
FUZZ_PACKAGES   := clang libclang-rt-14-dev
FUZZ_DIR        := build/fuzz

# Every object is sanitized; the code under test is also instrumented for
# edge coverage, only the link adds libFuzzer's main().  Comparisons are not
# traced (-fsanitize=fuzzer-no-link would add trace-cmp): the engines
# compare in every loop over a board, and tracing that cost more than half
# of each run for little guidance (orders are small numbers).
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_COV     := -fsanitize-coverage=inline-8bit-counters,indirect-calls,pc-table
FUZZ_HARNESS_CFLAGS := -std=gnu17 -g -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -I. $(FUZZ_SAN)
FUZZ_CFLAGS  := $(FUZZ_HARNESS_CFLAGS) $(FUZZ_COV)
FUZZ_LDFLAGS := $(FUZZ_SAN) -fsanitize=fuzzer

# -timeout: one input taking this long is a hang; -max_len: room for a few
# rounds of the largest orders message (3005 bytes).
FUZZ_OPTS := -rss_limit_mb=1024 -timeout=10 -max_len=8192

fuzz_obj = $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(1))

# The engines, the error type they fill and games/LIST compiled in (the
# Makefile's games/list.c).
FUZZ_ENGINE_SRC := $(wildcard games/*.c) $(wildcard games/*/engine/*.c) $(wildcard games/*/rules/*.c) \
		judge/base/error.c $(FUZZ_DIR)/gen/games/list.c

# target name -> its seed corpus (tests/fuzz/corpus/DIR): each game of
# games/LIST has its target tests/fuzz/fuzz_GAME_*.c, and its corpus GAME.
FUZZ_GAME_TARGETS := $(foreach g,$(GAMES),\
		$(patsubst tests/fuzz/%.c,%:$(g),$(wildcard tests/fuzz/fuzz_$(g)_*.c)))
FUZZ_TARGETS := $(FUZZ_GAME_TARGETS) fuzz_frames:frames fuzz_replay:replay fuzz_clex:clex
FUZZ_BINS    := $(foreach t,$(FUZZ_TARGETS),$(FUZZ_DIR)/$(firstword $(subst :, ,$(t))))

.PHONY: fuzz fuzz-smoke fuzz-build fuzz-toolchain

# Fails early, and says what to install, when clang or its fuzzer runtime is
# missing: the smallest fuzz target must build.
fuzz-toolchain:
	@mkdir -p $(FUZZ_DIR)
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || { \
		echo "fuzz: $(FUZZ_CC) is not installed; install the Debian packages" \
		     "$(FUZZ_PACKAGES) (scripts/deps.sh does, as root)" >&2; exit 1; }
	@echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return 0; }' | \
		$(FUZZ_CC) -x c - $(FUZZ_LDFLAGS) -o $(FUZZ_DIR)/.toolchain-check 2>$(FUZZ_DIR)/.toolchain-check.log || { \
		echo "fuzz: $(FUZZ_CC) cannot link -fsanitize=fuzzer,address,undefined" \
		     "($(FUZZ_DIR)/.toolchain-check.log); install the Debian packages" \
		     "$(FUZZ_PACKAGES) (scripts/deps.sh does, as root)" >&2; exit 1; }
	@rm -f $(FUZZ_DIR)/.toolchain-check $(FUZZ_DIR)/.toolchain-check.log

$(FUZZ_DIR)/obj/%.o: %.c | fuzz-toolchain
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

# The harness and the targets' checks are sanitized but not instrumented
# for coverage: their own branches would only steer the fuzzer away from
# the engines', and tracing their comparisons cost most of the run.
$(FUZZ_DIR)/obj/tests/fuzz/%.o: tests/fuzz/%.c | fuzz-toolchain
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_HARNESS_CFLAGS) -MMD -MP -c $< -o $@

# An orders target is its game's part (tests/fuzz/fuzz_GAME_orders.c), the
# harness they share (fuzz_orders.c) and the engines.
$(FUZZ_DIR)/fuzz_%_orders: $(call fuzz_obj,tests/fuzz/fuzz_%_orders.c tests/fuzz/fuzz_orders.c $(FUZZ_ENGINE_SRC))
	$(FUZZ_CC) $(FUZZ_LDFLAGS) $^ -ljansson -lcrypto -lm -o $@

# AIC2018's rounds are steps of one team: its own harness, and the engines.
$(FUZZ_DIR)/fuzz_aic2018_steps: $(call fuzz_obj,tests/fuzz/fuzz_aic2018_steps.c $(FUZZ_ENGINE_SRC))
	$(FUZZ_CC) $(FUZZ_LDFLAGS) $^ -ljansson -lcrypto -lm -o $@

# The frame reader alone: the target fakes the sandbox calls seat.c makes.
$(FUZZ_DIR)/fuzz_frames: $(call fuzz_obj,tests/fuzz/fuzz_frames.c judge/play/seat.c judge/base/grow.c \
				     judge/base/error.c)
	$(FUZZ_CC) $(FUZZ_LDFLAGS) $^ -o $@

# The replay check on hostile replays, with every engine.
$(FUZZ_DIR)/fuzz_replay: $(call fuzz_obj,tests/fuzz/fuzz_replay.c judge/replay/replay_check.c $(FUZZ_ENGINE_SRC))
	$(FUZZ_CC) $(FUZZ_LDFLAGS) $^ -ljansson -lcrypto -lm -o $@

# The C lexer and everything that reads C with it: the compile step's
# source checks, the player's name, and the plagiarism tokenizer.
FUZZ_CLEX_SRC := judge/base/clex.c judge/base/error.c judge/base/grow.c judge/base/player_name.c \
		 $(wildcard judge/compile/cscan*.c) judge/plag/plag_raw.c judge/plag/plag_macro.c \
		 judge/plag/plag_norm.c judge/plag/plag_tokens.c
$(FUZZ_DIR)/fuzz_clex: $(call fuzz_obj,tests/fuzz/fuzz_clex.c $(FUZZ_CLEX_SRC))
	$(FUZZ_CC) $(FUZZ_LDFLAGS) $^ -o $@

fuzz-build: $(FUZZ_BINS)

# $(1) target, $(2) its corpus folder, $(3) seconds, $(4) the folder new
# inputs go to (read too).  libFuzzer's chatter goes to a log; the summary
# line, or on failure the end of the log (the report and the saved input),
# comes to the terminal.
define fuzz_run
	@mkdir -p $(4) $(FUZZ_DIR)/artifacts
	@echo "fuzz: $(1) for $(3) s (log: $(FUZZ_DIR)/$(1).log)"
	@if $(FUZZ_DIR)/$(1) $(FUZZ_OPTS) -max_total_time=$(3) \
		-artifact_prefix=$(FUZZ_DIR)/artifacts/$(1)- \
		$(4) tests/fuzz/corpus/$(2) >$(FUZZ_DIR)/$(1).log 2>&1; then \
		echo "fuzz: $(1): $$(grep '^Done' $(FUZZ_DIR)/$(1).log)" \
		     "($$(awk '/^Done/ { printf "%d", $$2 / ($$5 ? $$5 : 1) }' $(FUZZ_DIR)/$(1).log)" \
		     "inputs a second): no crash, no leak"; \
	else \
		tail -n 40 $(FUZZ_DIR)/$(1).log >&2; \
		echo "fuzz: $(1) FAILED; the input is in $(FUZZ_DIR)/artifacts/ (see above)" >&2; \
		exit 1; \
	fi
endef

# One phony target per fuzzer, so that `make -j2` runs them side by side.
# The smoke run starts from the seeds alone each time (a fresh folder), so
# its length does not grow with earlier runs.
FUZZ_SMOKES := $(foreach t,$(FUZZ_TARGETS),fuzz-smoke-$(firstword $(subst :, ,$(t))))
FUZZ_LONGS  := $(foreach t,$(FUZZ_TARGETS),fuzz-long-$(firstword $(subst :, ,$(t))))
.PHONY: $(FUZZ_SMOKES) $(FUZZ_LONGS)

fuzz_corpus_of = $(word 2,$(subst :, ,$(filter $(1):%,$(FUZZ_TARGETS))))

$(FUZZ_SMOKES): fuzz-smoke-%: $(FUZZ_DIR)/%
	@rm -rf $(FUZZ_DIR)/smoke/$*
	$(call fuzz_run,$*,$(call fuzz_corpus_of,$*),$(FUZZ_SMOKE_TIME),$(FUZZ_DIR)/smoke/$*)

$(FUZZ_LONGS): fuzz-long-%: $(FUZZ_DIR)/%
	$(call fuzz_run,$*,$(call fuzz_corpus_of,$*),$(FUZZ_TIME),$(FUZZ_DIR)/corpus/$*)

fuzz-smoke: $(FUZZ_SMOKES)
fuzz: $(FUZZ_LONGS)

-include $(shell find $(FUZZ_DIR)/obj -name '*.d' 2>/dev/null)
