# mxcheck: a model checker for mutual exclusion over dynamic message passing.
GO ?= go
BIN := bin/mxcheck

.PHONY: build test race-smoke fuzz-smoke fuzz demo verify bench golden check-all check-lme-n4 simulate-lme-n4 churn-table camera-n4 clean

build:
	$(GO) build ./...
	$(GO) build -o $(BIN) ./cmd/mxcheck

# The default test run: unit tests, golden state counts, BFS/DFS cross-checks,
# mutants, and the replay of every stored counterexample.
test:
	$(GO) test ./...
	$(MAKE) race-smoke
	$(MAKE) fuzz-smoke

# The parallel searches under the race detector (a few seconds): the BFS
# workers sharing a seen-set (its reads without the lock included: the
# race build makes the slots' writes atomic stores, storeSlot) and a
# level's units, the parallel DFS.
race-smoke:
	$(GO) test -race -count=1 -run 'TestParallelIdentical|TestParallelTraceDeterministic|TestSharedSeenConcurrent|TestClaimUnits|TestUnitsSameSearch|TestCrew' ./explore

# Native Go fuzz targets (.ci/fuzz lists them): spec parameters and
# checker flags through the CLI, suite files, ITF trace reading and replay,
# --topology edge lists. Seed corpora are under each package's
# testdata/fuzz/. fuzz-smoke runs each for FUZZTIME (3 s, part of make
# test); make fuzz runs each for 5 minutes. A failing input is written to
# testdata/fuzz/<target>/ and then replays in every go test run.
FUZZTIME ?= 3s

fuzz-smoke:
	./.ci/fuzz $(FUZZTIME)

fuzz:
	$(MAKE) fuzz-smoke FUZZTIME=5m

# Ricart–Agrawala with full membership (verified), then with one membership
# entry churned away while it runs (the shortest counterexample).
demo: build
	$(BIN) check ra --nodes 3 --quiet
	@echo
	$(BIN) check ra --nodes 3 --churn 1 --quiet; test $$? -eq 1

verify:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1; }
	$(GO) vet ./...
	$(GO) mod tidy -diff

# Benchmarks print distinct states, states/s and bytes per state for fixed
# configurations; quote medians of several runs.
bench: build
	$(GO) run ./cmd/mxbench -mxcheck bin/mxcheck -runs 5
	$(GO) test -run '^$$' -bench . -benchtime 1x -count 3 ./explore/ ./specs/...

# Rewrite golden files and stored counterexamples; read the diff before
# committing it.
golden:
	UPDATE_GOLDEN=1 $(GO) test ./specs/...

# Heavier exhaustive runs, kept out of the default test run (about an hour
# and a half on 2 cores and up to ~18 GB: lme's N=3 goldens, plain and
# symmetric, Maekawa's full N=4 grid).
check-all:
	MXCHECK_HEAVY=1 $(GO) test -timeout 300m ./...

# lme (seed 000) on four nodes of a static path, faithful and repaired: two
# depth-first searches of 407M and 494M orbits side by side, one process and
# ~10 GB each (about 2.25 hours on 2 cores; not part of check-all).
check-lme-n4:
	@set -e; \
	MXCHECK_LME_N4=1 GOMEMLIMIT=10GiB $(GO) test -run 'TestFiles/n4/blocks/line6$$' -timeout 300m -v ./specs/lme/ & f=$$!; \
	MXCHECK_LME_N4=1 GOMEMLIMIT=10GiB $(GO) test -run 'TestFiles/n4/blocks/line17$$' -timeout 300m -v ./specs/lme/ & r=$$!; \
	wait $$f; wait $$r

# Random walks where exhaustive search takes hours: lme on a 4-node path,
# repaired, five minutes (no violation expected; prints rates and coverage).
simulate-lme-n4: build
	$(BIN) simulate lme --nodes 4 --variant repaired --runs 0 --timeout 5m --property no-deadlock,mutual-exclusion

# RA vs Camera vs Maekawa under churn, side by side: verdict, distinct
# states, shortest counterexample length per configuration.
churn-table: build
	$(BIN) suite specs/ra/testdata/churn.txt specs/camera/testdata/churn.txt specs/maekawa/testdata/churn.txt

# Camera on every placement of one or two missing entries on N = 4 (78
# configurations, about 2 hours on 2 cores).
camera-n4: build
	$(BIN) suite --jobs 0 specs/camera-n4.suite

clean:
	rm -rf bin
