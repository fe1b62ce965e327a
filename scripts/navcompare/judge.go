package main

import (
	"fmt"
	"path"
	"strings"
)

// judge is the reference language server navcompare compares parley with,
// and the files and call sites it is judged on.
type judge struct {
	name string
	args []string // after the binary
	env  []string
	// source reports whether a root-relative slash path is a non-test
	// source file of the judge's language whose sites can be sampled.
	source func(rel string) bool
	// skipDir reports whether a directory (its base name) is left out of
	// the sample.
	skipDir func(name string) bool
	// sites lists the candidate sites of one file.
	sites func(abs string) []site
	// initOptions are the initialize request's initializationOptions.
	initOptions any
}

// judges are the reference servers by -judge name. The npm ones are pinned
// in judges/package.json.
var judges = map[string]judge{
	"gopls": {
		name: "gopls", args: []string{"serve"}, env: []string{"GOTOOLCHAIN=local"},
		source: func(rel string) bool {
			return strings.HasSuffix(rel, ".go") && !strings.HasSuffix(rel, "_test.go")
		},
		// The go command ignores testdata and directories starting with
		// "_" or "." (GOROOT's _asm generators are separate modules gopls
		// does not load).
		skipDir: func(n string) bool {
			return n == "testdata" || n == "vendor" || n == "node_modules" || n[0] == '_' || n[0] == '.'
		},
		sites: exportedCalls,
	},
	"pyright": {
		name: "pyright", args: []string{"--stdio"},
		source: func(rel string) bool {
			b := path.Base(rel)
			return strings.HasSuffix(b, ".py") && !strings.HasPrefix(b, "test_") && b != "conftest.py"
		},
		// Test packages (Lib/test, idlelib/idle_test, .../tests) are test
		// code; site-packages is not the standard library.
		skipDir: func(n string) bool {
			return n == "test" || n == "tests" || n == "idle_test" || n == "site-packages" || n == "dist-packages" ||
				n == "__pycache__" || n == "node_modules" || n[0] == '.'
		},
		sites: func(abs string) []site { return treeSitterSites(abs, pythonSites) },
	},
	"tsserver": {
		name: "typescript-language-server", args: []string{"--stdio"},
		source: func(rel string) bool {
			if strings.HasSuffix(rel, ".d.ts") || strings.Contains(rel, ".spec.") || strings.Contains(rel, ".test.") {
				return false
			}
			return strings.HasSuffix(rel, ".ts") || strings.HasSuffix(rel, ".tsx")
		},
		skipDir: func(n string) bool {
			return n == "node_modules" || n == "test" || n == "tests" || n == "__tests__" || n == "spec" || n[0] == '.'
		},
		sites: func(abs string) []site { return treeSitterSites(abs, typescriptSites) },
		// Without this, requests sent while the project loads are answered
		// by tsserver's syntax-only server, which stops at import
		// specifiers instead of following them.
		initOptions: map[string]any{"tsserver": map[string]any{"useSyntaxServer": "never"}},
	},
	// tsserver-js is tsserver on JavaScript sources (rxjs's dist/esm
	// build, say, with a jsconfig.json naming them): the same sites, in
	// .js, .mjs and .cjs files (minified ones left out).
	"tsserver-js": {
		name: "typescript-language-server", args: []string{"--stdio"},
		source: func(rel string) bool {
			b := path.Base(rel)
			if strings.HasSuffix(b, ".min.js") || strings.Contains(b, ".spec.") || strings.Contains(b, ".test.") {
				return false
			}
			return strings.HasSuffix(b, ".js") || strings.HasSuffix(b, ".mjs") || strings.HasSuffix(b, ".cjs")
		},
		skipDir: func(n string) bool {
			return n == "node_modules" || n == "test" || n == "tests" || n == "__tests__" || n == "spec" || n[0] == '.'
		},
		sites:       func(abs string) []site { return treeSitterSites(abs, typescriptSites) },
		initOptions: map[string]any{"tsserver": map[string]any{"useSyntaxServer": "never"}},
	},
	// clangd judges C: the sites are variable uses in function bodies
	// (sample_ts.go's cVariableSites), mostly locals and parameters, which
	// parley resolves from the buffer (index/locals). Without a
	// compile_commands.json clangd parses each file with its fallback
	// flags, which is enough for a file's own locals.
	"clangd": {
		name: "clangd", args: []string{"--background-index=false", "--log=error"},
		source: func(rel string) bool { return strings.HasSuffix(rel, ".c") },
		skipDir: func(n string) bool {
			return n == "test" || n == "tests" || n == "node_modules" || n[0] == '.'
		},
		sites: func(abs string) []site { return treeSitterSites(abs, cVariableSites) },
	},
}

func judgeNamed(name string) (judge, error) {
	j, ok := judges[name]
	if !ok {
		return judge{}, fmt.Errorf("unknown judge %q (gopls, pyright, tsserver, tsserver-js, clangd)", name)
	}
	return j, nil
}

// languageID is the LSP language of a file, from its extension.
func languageID(p string) string {
	switch path.Ext(p) {
	case ".py", ".pyi":
		return "python"
	case ".ts":
		return "typescript"
	case ".tsx":
		return "typescriptreact"
	case ".js", ".mjs", ".cjs":
		return "javascript"
	case ".jsx":
		return "javascriptreact"
	case ".c", ".h":
		return "c"
	}
	return "go"
}
