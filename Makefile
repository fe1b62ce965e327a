# parley — see README.md. `make test` must pass offline on two cores.
GO      ?= go
BIN     := bin/parley
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)
# The workspace `make run` indexes; override with `make run WS=/path`.
WS      ?= .

VSCODE  := editors/vscode

.PHONY: build run test bench bench-index-langs bench-tokens bench-completion lint fuzz clean vscode-deps vscode-test vscode vscode-e2e mcp-e2e acp-e2e

build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/parley

run: build
	./$(BIN) index $(WS)

# The packages with concurrent code (stores, servers, watchers, MCP sessions),
# tested again under the race detector, which makes parsing 5-10x slower:
# index/extract's corpus tests took 4-10 minutes under it on 2 loaded cores,
# around go test's default 10-minute timeout per package, hence 20. (gotreesitter's experimental forest
# path, whose package-level diagnostic string raced between concurrent parses,
# is off in every parley process: index/extract/forest.go.)
RACE_PKGS := ./workspace/... ./index/... ./lsp/... ./agent/... ./memory/... ./tools/mcpclient/... ./tools/mcpserve/...

# scripts/gotest runs go test; under CI=true it fails on any skipped test
# whose reason is not the platform (internal/testenv).
test:
	$(GO) vet ./...
	$(GO) run ./scripts/gotest -count=1 ./...
	$(GO) run ./scripts/gotest -race -count=1 -timeout 20m $(RACE_PKGS)

# Heavy: indexes GOROOT/src, the Python standard library and a JavaScript
# tree with parley and universal-ctags and prints ratios. Not part of test.
bench: build
	./scripts/bench.sh

# Cold index against universal-ctags per language (issue 26): Python,
# TypeScript (rxjs), JavaScript, Java, Rust, C and C++, medians of
# alternating runs; a corpus missing here is skipped (see scripts/bench.sh).
bench-index-langs: build
	BENCH_CORPORA="py ts js java rust c cpp" BENCH_GO_TESTS=0 BENCH_LSP=0 BENCH_NAV=0 ./scripts/bench.sh

# The re-read ledger's token savings on 32 real files of 12 languages
# (tools/testdata/tokenbench: a tuning and a held-out half), per file,
# language and half, against issues 12 and 27's targets; fails below them.
bench-tokens:
	$(GO) test ./tools -run '^$$' -bench '^BenchmarkTokens$$' -benchtime 1x

# Inline completion's context against a BM25 baseline (recall of the
# called declaration at 300 held-out x.Name( sites per language), the
# latency of building a request, and typing through the engine, on
# GOROOT/src, the Python stdlib and rxjs (npm ci in the judges' directory
# downloads it; without it TypeScript is skipped). Not part of test.
# Results in bench_out/completion.json; the stores stay in
# bench_out/completion for the next run.
JUDGES := scripts/navcompare/judges
bench-completion:
	@test -d $(JUDGES)/node_modules/rxjs || (cd $(JUDGES) && npm ci --no-audit --no-fund) || echo "bench-completion: npm ci failed; TypeScript is skipped"
	$(GO) run ./scripts/completionbench -data bench_out/completion -out bench_out/completion.json

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) mod tidy -diff

# Short fuzz runs of every parser of untrusted input.
fuzz:
	$(GO) test ./index/extract -run '^$$' -fuzz FuzzExtract -fuzztime 60s
	$(GO) test ./index/extract -run '^$$' -fuzz FuzzTSMask -fuzztime 30s
	$(GO) test ./index/extract -run '^$$' -fuzz FuzzScanCpp -fuzztime 30s
	$(GO) test ./index/extract/pyscan -run '^$$' -fuzz FuzzScan -fuzztime 30s
	$(GO) test ./index/extract/javascan -run '^$$' -fuzz FuzzScan -fuzztime 30s
	$(GO) test ./index/extract/rustscan -run '^$$' -fuzz FuzzScan -fuzztime 30s
	$(GO) test ./index/extract/cscan -run '^$$' -fuzz FuzzScan -fuzztime 30s
	$(GO) test ./index/extract/tsscan -run '^$$' -fuzz FuzzScan -fuzztime 30s
	$(GO) test ./workspace -run '^$$' -fuzz FuzzIgnorePattern -fuzztime 30s
	$(GO) test ./workspace -run '^$$' -fuzz FuzzLines -fuzztime 30s
	$(GO) test ./index -run '^$$' -fuzz FuzzDecode -fuzztime 30s
	$(GO) test ./index/golang -run '^$$' -fuzz FuzzGoResolve -fuzztime 30s
	$(GO) test ./index/python -run '^$$' -fuzz FuzzPyResolve -fuzztime 30s
	$(GO) test ./index/python -run '^$$' -fuzz FuzzPyDescriptors -fuzztime 30s
	$(GO) test ./index/typescript -run '^$$' -fuzz FuzzTSResolve -fuzztime 30s
	$(GO) test ./index/typescript -run '^$$' -fuzz FuzzTSDescriptors -fuzztime 30s
	$(GO) test ./index/locals -run '^$$' -fuzz FuzzLocalsResolve -fuzztime 30s
	$(GO) test ./index/graph -run '^$$' -fuzz FuzzManifests -fuzztime 30s
	$(GO) test ./lsp -run '^$$' -fuzz FuzzMinimalEdits -fuzztime 30s
	$(GO) test ./lsp -run '^$$' -fuzz FuzzStreamRead -fuzztime 30s
	$(GO) test ./lsp -run '^$$' -fuzz FuzzServerFrames -fuzztime 30s
	$(GO) test ./lsp -run '^$$' -fuzz FuzzLuaObjects -fuzztime 30s
	$(GO) test ./internal/shellcmd -run '^$$' -fuzz FuzzShellDanger -fuzztime 30s
	$(GO) test ./internal/jsonschema -run '^$$' -fuzz FuzzDecodeInput -fuzztime 30s
	$(GO) test ./memory/vector -run '^$$' -fuzz FuzzDecodeGraph -fuzztime 30s
	$(GO) test ./memory/docs -run '^$$' -fuzz FuzzChunk -fuzztime 30s
	$(GO) test ./memory/docs -run '^$$' -fuzz FuzzExtractPDF -fuzztime 30s
	$(GO) test ./internal/htmlmd -run '^$$' -fuzz FuzzHTMLToText -fuzztime 30s
	$(GO) test ./agent/config -run '^$$' -fuzz FuzzParseLayer -fuzztime 30s
	$(GO) test ./agent/hooks -run '^$$' -fuzz FuzzHookAnswer -fuzztime 30s
	$(GO) test ./agent/ralph -run '^$$' -fuzz FuzzParse -fuzztime 30s
	$(GO) test ./agent/mentions -run '^$$' -fuzz FuzzParse -fuzztime 30s
	$(GO) test ./agent/provider -run '^$$' -fuzz FuzzRetryAfter -fuzztime 30s
	$(GO) test ./agent/provider -run '^$$' -fuzz FuzzErrorBody -fuzztime 30s
	$(GO) test ./agent/provider -run '^$$' -fuzz FuzzDebugBody -fuzztime 30s
	$(GO) test ./agent/provider -run '^$$' -fuzz FuzzToolInput -fuzztime 30s
	$(GO) test ./agent/provider -run '^$$' -fuzz FuzzStream -fuzztime 30s
	$(GO) test ./cmd/parley -run '^$$' -fuzz FuzzDiffHunks -fuzztime 30s
	$(GO) test ./agent/complete/fim -run '^$$' -fuzz FuzzParse -fuzztime 30s
	$(GO) test ./agent/complete -run '^$$' -fuzz FuzzChangedLines -fuzztime 30s
	$(GO) test ./tools/mcpserve -run '^$$' -fuzz FuzzFilterFrames -fuzztime 30s
	$(GO) test ./agent/acp -run '^$$' -fuzz FuzzFrames -fuzztime 30s

# The VS Code extension (needs Node 20+ and npm; its Chromium tests need
# Debian's chromium). Not part of `test`, which runs offline: npm ci
# downloads. .ci/run runs both.
vscode-deps:
	cd $(VSCODE) && npm ci
# Unit, Chromium and end-to-end tests (the latter against bin/parley).
vscode-test: build vscode-deps
	cd $(VSCODE) && PARLEY_BIN=$(CURDIR)/$(BIN) npm test
# editors/vscode/parley-<version>.vsix
vscode: vscode-deps
	cd $(VSCODE) && npm run package

# The packaged extension in a real VS Code: code-server 4.100.3 (Node 20;
# editors/vscode/e2e/package.json, pinned; install.sh says what its
# offline install needs from Debian) driven by Debian's chromium through
# playwright-core, against bin/parley and a local fake model. Screenshots,
# and logs on failure, in editors/vscode/e2e/artifacts/.
VSCODE_E2E := $(VSCODE)/e2e
vscode-e2e: build vscode
	$(VSCODE_E2E)/install.sh
	cd $(VSCODE_E2E) && PARLEY_BIN=$(CURDIR)/$(BIN) npm test

# MCP against real peers from npm (tools/mcpclient/e2e/package.json,
# pinned): parley's client against the reference servers (everything over
# stdio and streamable HTTP, filesystem), parley mcp against the official
# TypeScript SDK client. Not part of `test`: npm ci downloads.
MCPE2E := tools/mcpclient/e2e
mcp-e2e:
	cd $(MCPE2E) && npm ci --no-audit --no-fund
	$(GO) test -tags mcpe2e -count=1 ./$(MCPE2E)/

# parley acp driven by the official ACP TypeScript client (agent/acp/e2e).
ACPE2E := agent/acp/e2e
acp-e2e:
	cd $(ACPE2E) && npm ci --no-audit --no-fund
	$(GO) test -tags acpe2e -count=1 ./$(ACPE2E)/

clean:
	rm -rf bin bench_out $(VSCODE)/dist $(VSCODE)/out $(VSCODE)/*.vsix $(VSCODE_E2E)/artifacts
