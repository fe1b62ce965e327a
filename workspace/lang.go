package workspace

import (
	"bytes"
	"path"
	"strings"
)

// Canonical language names for which the indexer has parsers. Other
// recognisable text formats get a descriptive name (markdown, json, ...).
const (
	LangGo         = "go"
	LangPython     = "python"
	LangJavaScript = "javascript"
	LangTypeScript = "typescript"
	LangTSX        = "tsx"
	LangJava       = "java"
	LangRust       = "rust"
	LangC          = "c"
	LangCPP        = "cpp"
	LangCSharp     = "csharp"
	LangRuby       = "ruby"
	LangPHP        = "php"
	LangKotlin     = "kotlin"
	LangSwift      = "swift"
	LangLua        = "lua"
	LangBash       = "bash"
)

// langByExt maps a lower-case extension (with dot) to a language.
var langByExt = map[string]string{
	".go": LangGo,
	".py": LangPython, ".pyi": LangPython, ".pyw": LangPython,
	".js": LangJavaScript, ".mjs": LangJavaScript, ".cjs": LangJavaScript, ".jsx": LangJavaScript,
	".ts": LangTypeScript, ".mts": LangTypeScript, ".cts": LangTypeScript,
	".tsx":  LangTSX,
	".java": LangJava,
	".rs":   LangRust,
	".c":    LangC, ".h": LangC,
	".cc": LangCPP, ".cpp": LangCPP, ".cxx": LangCPP, ".c++": LangCPP,
	".hh": LangCPP, ".hpp": LangCPP, ".hxx": LangCPP, ".h++": LangCPP, ".ipp": LangCPP, ".inl": LangCPP,
	".cs": LangCSharp, ".csx": LangCSharp,
	".rb": LangRuby, ".rake": LangRuby, ".gemspec": LangRuby, ".ru": LangRuby,
	".php": LangPHP, ".phtml": LangPHP,
	".kt": LangKotlin, ".kts": LangKotlin,
	".swift": LangSwift,
	".lua":   LangLua,
	".sh":    LangBash, ".bash": LangBash, ".zsh": LangBash, ".ksh": LangBash, ".bats": LangBash,

	".md": "markdown", ".markdown": "markdown", ".mdx": "markdown",
	".json": "json", ".jsonc": "json", ".json5": "json",
	".yaml": "yaml", ".yml": "yaml",
	".toml": "toml",
	".html": "html", ".htm": "html", ".xhtml": "html",
	".css": "css", ".scss": "scss", ".sass": "sass", ".less": "less",
	".sql": "sql",
	".xml": "xml", ".xsd": "xml", ".xsl": "xml", ".svg": "xml", ".plist": "xml",
	".proto": "proto",
	".s":     "assembly", ".asm": "assembly",
	".mk": "makefile", ".mak": "makefile",
	".dockerfile": "dockerfile",
	".txt":        "text", ".text": "text",
	".rst": "rst", ".tex": "latex", ".csv": "csv", ".tsv": "tsv",
	".ini": "ini", ".cfg": "ini", ".conf": "conf",
	".diff": "diff", ".patch": "diff",
	".graphql": "graphql", ".gql": "graphql",
	".bzl": "starlark", ".star": "starlark",
	".cmake": "cmake", ".gradle": "groovy", ".groovy": "groovy",
	".scala": "scala", ".sbt": "scala", ".dart": "dart", ".zig": "zig",
	".hs": "haskell", ".ex": "elixir", ".exs": "elixir", ".erl": "erlang",
	".clj": "clojure", ".pl": "perl", ".pm": "perl", ".r": "r",
	".ps1": "powershell", ".bat": "batch", ".cmd": "batch",
	".m": "objc", ".mm": "objcpp", ".vue": "vue", ".svelte": "svelte",
	".tf": "hcl", ".hcl": "hcl", ".txtar": "txtar", ".tmpl": "template",
}

// langByName maps exact (case-sensitive) base names; it is consulted before
// extensions so "CMakeLists.txt" is cmake and "go.mod" is not text.
var langByName = map[string]string{
	"Makefile": "makefile", "makefile": "makefile", "GNUmakefile": "makefile",
	"Dockerfile": "dockerfile", "dockerfile": "dockerfile", "Containerfile": "dockerfile",
	"Gemfile": LangRuby, "Rakefile": LangRuby, "Guardfile": LangRuby, "Podfile": LangRuby, "Vagrantfile": LangRuby,
	"BUILD": "starlark", "BUILD.bazel": "starlark", "WORKSPACE": "starlark", "WORKSPACE.bazel": "starlark",
	"MODULE.bazel": "starlark",
	".bashrc":      LangBash, ".bash_profile": LangBash, ".bash_login": LangBash, ".bash_logout": LangBash,
	".bash_aliases": LangBash, ".profile": LangBash, ".zshrc": LangBash, ".zprofile": LangBash, ".zshenv": LangBash,
	"PKGBUILD":       LangBash,
	"CMakeLists.txt": "cmake",
	"go.mod":         "gomod", "go.work": "gomod", "go.sum": "gosum",
	"LICENSE": "text", "COPYING": "text", "NOTICE": "text", "AUTHORS": "text",
	"CONTRIBUTORS": "text", "PATENTS": "text", "README": "text", "VERSION": "text",
}

// langByInterpreter maps a shebang interpreter (version digits stripped).
var langByInterpreter = map[string]string{
	"python": LangPython, "pypy": LangPython,
	"node": LangJavaScript, "nodejs": LangJavaScript, "bun": LangJavaScript,
	"deno": LangTypeScript, "ts-node": LangTypeScript, "tsx": LangTypeScript,
	"ruby": LangRuby, "php": LangPHP, "lua": LangLua, "luajit": LangLua,
	"bash": LangBash, "sh": LangBash, "dash": LangBash, "zsh": LangBash, "ksh": LangBash, "ash": LangBash,
	"perl": "perl", "Rscript": "r",
}

// DetectLanguage names the language of the file at rel (slash-separated)
// from its base name, then its extension (case-insensitive), then - only if
// those are inconclusive and head is non-nil - a "#!" line at the start of
// head. It returns "" when unknown.
func DetectLanguage(rel string, head []byte) string {
	if lang := languageByName(rel); lang != "" {
		return lang
	}
	return languageByShebang(head)
}

// NeedsHead reports whether DetectLanguage cannot decide from rel alone, so
// callers read the first bytes of a file only when they can matter.
func NeedsHead(rel string) bool { return languageByName(rel) == "" }

func languageByName(rel string) string {
	name := path.Base(rel)
	if lang, ok := langByName[name]; ok {
		return lang
	}
	if strings.HasPrefix(name, "Dockerfile.") || strings.HasSuffix(name, ".Dockerfile") {
		return "dockerfile"
	}
	ext := path.Ext(name)
	if ext == "" || ext == name {
		return "" // no extension, or a dot file like ".envrc"
	}
	return langByExt[strings.ToLower(ext)] // ToLower doesn't allocate for lower-case input
}

// languageByShebang understands "#!/path/interp args" and
// "#!/usr/bin/env [-S] [-flags] [VAR=x] interp args".
func languageByShebang(head []byte) string {
	if !bytes.HasPrefix(head, []byte("#!")) {
		return ""
	}
	line := head[2:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	fields := strings.Fields(string(line))
	if len(fields) == 0 {
		return ""
	}
	interp := path.Base(fields[0])
	if interp == "env" {
		interp = ""
		for _, f := range fields[1:] {
			if strings.HasPrefix(f, "-") || strings.Contains(f, "=") {
				continue // env options and VAR=value assignments
			}
			interp = path.Base(f)
			break
		}
	}
	// python3.12 -> python, lua5.1 -> lua, php8 -> php.
	interp = strings.TrimRight(interp, "0123456789.")
	return langByInterpreter[interp]
}
