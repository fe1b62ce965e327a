package graph

import (
	"path"
	"strings"
)

type pyState struct {
	roots   []string          // fixed source roots that exist: ".", "src", "lib"
	pkgRoot map[string]string // cache: directory -> parent of its top package
}

func (ix *index) pyInit() *pyState {
	if ix.pySt == nil {
		st := &pyState{pkgRoot: make(map[string]string)}
		for _, r := range []string{".", "src", "lib"} {
			if ix.isDir(r) {
				st.roots = append(st.roots, r)
			}
		}
		ix.pySt = st
	}
	return ix.pySt
}

// packageRoot walks up from dir while the directories are regular packages
// (hold __init__.py) and returns the directory above the topmost one: the
// source root the importing file's package lives in.
func (ix *index) packageRoot(dir string) string {
	st := ix.pyInit()
	if r, ok := st.pkgRoot[dir]; ok {
		return r
	}
	r := dir
	if ix.isFile(path.Join(dir, "__init__.py")) {
		if parent, ok := parentDir(dir); ok {
			r = ix.packageRoot(parent)
		}
	}
	st.pkgRoot[dir] = r
	return r
}

// resolvePython resolves "a.b.c" absolutely against the source roots and
// ".x"/"..x.y"/"." relative to the importing file's package.
func (ix *index) resolvePython(f *node, p string) target {
	dir := dirOf(f.Path)
	if strings.HasPrefix(p, ".") {
		rest := strings.TrimLeft(p, ".")
		base := dir
		for i := len(p) - len(rest); i > 1; i-- {
			parent, ok := parentDir(base)
			if !ok {
				return target{}
			}
			base = parent
		}
		if rest == "" {
			if init := path.Join(base, "__init__.py"); ix.isFile(init) {
				return fileTarget(init)
			}
			if len(ix.filesIn(base)) > 0 {
				return target{to: base, dir: true}
			}
			return target{}
		}
		return ix.pyModule(base, rest)
	}
	st := ix.pyInit()
	// The importing file's own source root (its directory, for a script)
	// comes first, then the conventional roots.
	roots := make([]string, 0, len(st.roots)+1)
	roots = append(roots, ix.packageRoot(dir))
	for _, r := range st.roots {
		if r != roots[0] {
			roots = append(roots, r)
		}
	}
	for _, r := range roots {
		if t := ix.pyModule(r, p); t.to != "" {
			return t
		}
	}
	return target{ext: pyStdlib[firstDotted(p)] || !ix.pyTopExists(roots, firstDotted(p))}
}

// pyModule resolves the dotted module name under base: the module file, the
// package's __init__.py, then the parent module ("from a.b import c" where c
// is an attribute), then a namespace package directory.
func (ix *index) pyModule(base, dotted string) target {
	rel := strings.ReplaceAll(dotted, ".", "/")
	p, ok := joinRel(base, rel)
	if !ok {
		return target{}
	}
	if hit := ix.firstFile(p+".py", p+".pyi", p+"/__init__.py", p+"/__init__.pyi"); hit != "" {
		return fileTarget(hit)
	}
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		q := path.Join(base, rel[:i])
		if hit := ix.firstFile(q+".py", q+".pyi", q+"/__init__.py"); hit != "" {
			return fileTarget(hit)
		}
	}
	if ix.hasPython(p) {
		return target{to: p, dir: true}
	}
	return target{}
}

// hasPython reports whether dir directly holds a Python file.
func (ix *index) hasPython(dir string) bool {
	for _, f := range ix.filesIn(dir) {
		if strings.HasSuffix(f, ".py") {
			return true
		}
	}
	return false
}

// pyTopExists reports whether top names a module or directory under one of
// roots; when it does, an unresolved import is not called external.
func (ix *index) pyTopExists(roots []string, top string) bool {
	for _, r := range roots {
		p := path.Join(r, top)
		if ix.isDir(p) || ix.isFile(p+".py") {
			return true
		}
	}
	return false
}

func firstDotted(p string) string {
	if i := strings.IndexByte(p, '.'); i >= 0 {
		return p[:i]
	}
	return p
}

// pyStdlib lists common standard library top-level modules.
var pyStdlib = setOf(
	"__future__", "abc", "argparse", "array", "ast", "asyncio", "base64",
	"binascii", "bisect", "builtins", "bz2", "calendar", "cmath", "codecs",
	"collections", "concurrent", "configparser", "contextlib", "contextvars",
	"copy", "csv", "ctypes", "dataclasses", "datetime", "decimal", "difflib",
	"dis", "email", "enum", "errno", "fcntl", "fnmatch", "fractions",
	"functools", "gc", "getpass", "gettext", "glob", "gzip", "hashlib",
	"heapq", "hmac", "html", "http", "importlib", "inspect", "io",
	"ipaddress", "itertools", "json", "keyword", "locale", "logging", "lzma",
	"math", "mimetypes", "multiprocessing", "numbers", "operator", "os",
	"pathlib", "pickle", "platform", "pprint", "queue", "random", "re",
	"select", "selectors", "shlex", "shutil", "signal", "socket",
	"socketserver", "sqlite3", "ssl", "stat", "statistics", "string",
	"struct", "subprocess", "sys", "sysconfig", "tarfile", "tempfile",
	"textwrap", "threading", "time", "timeit", "tkinter", "token", "tokenize",
	"traceback", "types", "typing", "typing_extensions", "unicodedata",
	"unittest", "urllib", "uuid", "venv", "warnings", "weakref", "xml",
	"zipfile", "zlib", "zoneinfo",
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
