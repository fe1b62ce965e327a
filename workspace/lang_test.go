package workspace

import "testing"

func TestDetectLanguage(t *testing.T) {
	tests := []struct {
		rel  string
		head string
		want string
	}{
		{"main.go", "", "go"},
		{"a/b/x.PY", "", "python"},
		{"stubs.pyi", "", "python"},
		{"gui.pyw", "", "python"},
		{"x.js", "", "javascript"},
		{"x.mjs", "", "javascript"},
		{"x.cjs", "", "javascript"},
		{"x.jsx", "", "javascript"},
		{"x.ts", "", "typescript"},
		{"x.d.ts", "", "typescript"},
		{"x.mts", "", "typescript"},
		{"x.cts", "", "typescript"},
		{"x.tsx", "", "tsx"},
		{"X.java", "", "java"},
		{"lib.rs", "", "rust"},
		{"a.c", "", "c"},
		{"a.h", "", "c"},
		{"a.H", "", "c"},
		{"a.hpp", "", "cpp"},
		{"a.hh", "", "cpp"},
		{"a.hxx", "", "cpp"},
		{"a.cc", "", "cpp"},
		{"a.cxx", "", "cpp"},
		{"a.CPP", "", "cpp"},
		{"a.cs", "", "csharp"},
		{"a.rb", "", "ruby"},
		{"tasks.rake", "", "ruby"},
		{"Gemfile", "", "ruby"},
		{"sub/Rakefile", "", "ruby"},
		{"a.php", "", "php"},
		{"a.kt", "", "kotlin"},
		{"build.gradle.kts", "", "kotlin"},
		{"a.swift", "", "swift"},
		{"a.lua", "", "lua"},
		{"a.sh", "", "bash"},
		{"a.bash", "", "bash"},
		{"a.zsh", "", "bash"},
		{"home/.bashrc", "", "bash"},
		{".profile", "", "bash"},
		{"README.md", "", "markdown"},
		{"a.json", "", "json"},
		{"a.yml", "", "yaml"},
		{"a.yaml", "", "yaml"},
		{"Cargo.toml", "", "toml"},
		{"a.html", "", "html"},
		{"a.css", "", "css"},
		{"a.scss", "", "scss"},
		{"q.sql", "", "sql"},
		{"Makefile", "", "makefile"},
		{"GNUmakefile", "", "makefile"},
		{"rules.mk", "", "makefile"},
		{"Dockerfile", "", "dockerfile"},
		{"Dockerfile.dev", "", "dockerfile"},
		{"notes.txt", "", "text"},
		{"CMakeLists.txt", "", "cmake"},
		{"pom.xml", "", "xml"},
		{"api.proto", "", "proto"},
		{"asm_amd64.s", "", "assembly"},
		{"x.S", "", "assembly"},
		{"BUILD", "", "starlark"},
		{"go.mod", "", "gomod"},
		{"LICENSE", "", "text"},
		// Extension beats shebang; unknown stays "".
		{"x.py", "#!/bin/sh\n", "python"},
		{"data.bin", "", ""},
		{"noext", "", ""},
		{".envrc", "", ""},
		{"build", "", ""}, // a lower-case script, not Bazel
		// Shebangs.
		{"tool", "#!/usr/bin/env python3\nprint()", "python"},
		{"tool", "#!/usr/bin/python3.12\n", "python"},
		{"tool", "#!/bin/sh\n", "bash"},
		{"tool", "#! /bin/bash -e\n", "bash"},
		{"tool", "#!/usr/bin/bash", "bash"},
		{"tool", "#!/bin/dash\n", "bash"},
		{"tool", "#!/usr/bin/env zsh\n", "bash"},
		{"tool", "#!/usr/bin/env -S node --flag\n", "javascript"},
		{"tool", "#!/usr/bin/env -S NODE_OPTIONS=x node\n", "javascript"},
		{"tool", "#!/usr/local/bin/node\r\n", "javascript"},
		{"tool", "#!/usr/bin/env ruby\n", "ruby"},
		{"tool", "#!/usr/bin/php\n", "php"},
		{"tool", "#!/usr/bin/env lua5.1\n", "lua"},
		{"tool", "#!/usr/bin/env deno\n", "typescript"},
		{"tool", "#!/usr/bin/env\n", ""},
		{"tool", "#!\n", ""},
		{"tool", "#!/usr/bin/env unknown-thing\n", ""},
		{"tool", "# not a shebang\n", ""},
		{"tool", " #!/bin/sh\n", ""},
	}
	for _, tc := range tests {
		var head []byte
		if tc.head != "" {
			head = []byte(tc.head)
		}
		if got := DetectLanguage(tc.rel, head); got != tc.want {
			t.Errorf("DetectLanguage(%q, %q) = %q, want %q", tc.rel, tc.head, got, tc.want)
		}
	}
}

func TestNeedsHead(t *testing.T) {
	for rel, want := range map[string]bool{
		"main.go": false, "Makefile": false, "bin/tool": true, "x.unknownext": true, ".bashrc": false, "a/.envrc": true,
	} {
		if got := NeedsHead(rel); got != want {
			t.Errorf("NeedsHead(%q) = %v, want %v", rel, got, want)
		}
	}
}

func BenchmarkDetectLanguage(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		DetectLanguage("src/runtime/proc.go", nil)
		DetectLanguage("src/cmd/dist/README", nil)
	}
}
