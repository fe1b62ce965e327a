package graph

import (
	"path"
	"slices"
	"strings"
)

// target is the outcome of resolving one import.
type target struct {
	to      string // file or directory; "" when unresolved
	dir     bool   // to is a directory unit
	ext     bool   // recognisably external (meaningful when unresolved)
	unitFam string // see edgeRec
	unitPkg string
}

func fileTarget(p string) target { return target{to: p} }

// node is a workspace file with its normalised language.
type node struct {
	File
	lang string
}

// index holds the lookup structures every resolver shares, plus lazily
// built per-language state. It is used by one goroutine, during Build.
type index struct {
	files   map[string]*node
	order   []string            // file paths, sorted
	configs map[string][]string // base name of a config file -> its paths, sorted
	read    func(string) ([]byte, error)
	env     Env

	// Built on first use (see lazy): not every workspace needs them.
	built    bool
	dirFiles map[string][]string // directory -> files directly in it, sorted
	dirs     map[string]bool     // every directory holding a file at any depth
	byBase   map[string][]string // base name -> files, sorted

	goSt   *goState
	pySt   *pyState
	jsSt   *jsState
	jvmSt  *jvmState
	csSt   *csState
	rustSt *rustState
	phpSt  *phpState
}

// configNames are the files resolvers read through readFile.
var configNames = setOf("go.mod", "package.json", "tsconfig.json", "jsconfig.json",
	"Cargo.toml", "composer.json")

func newIndex(files []File, read func(string) ([]byte, error), env Env) *index {
	ix := &index{
		files:   make(map[string]*node, len(files)),
		configs: make(map[string][]string),
		read:    read,
		env:     env,
	}
	nodes := make([]node, len(files))
	for i := range files {
		n := &nodes[i]
		n.File = files[i]
		n.Path = cleanRel(n.Path)
		if n.Path != "" {
			n.lang = normLang(n.Lang, n.Path)
			ix.files[n.Path] = n
		}
	}
	ix.order = make([]string, 0, len(ix.files))
	for p := range ix.files {
		ix.order = append(ix.order, p)
	}
	slices.Sort(ix.order)
	for _, p := range ix.order {
		if b := baseOf(p); configNames[b] {
			ix.configs[b] = append(ix.configs[b], p)
		}
	}
	return ix
}

// lazy builds the directory and base-name indexes.
func (ix *index) lazy() {
	if ix.built {
		return
	}
	ix.built = true
	ix.dirFiles = make(map[string][]string)
	ix.dirs = map[string]bool{".": true}
	ix.byBase = make(map[string][]string, len(ix.order))
	for _, p := range ix.order {
		d := dirOf(p)
		ix.dirFiles[d] = append(ix.dirFiles[d], p)
		b := baseOf(p)
		ix.byBase[b] = append(ix.byBase[b], p)
		for ; !ix.dirs[d]; d = dirOf(d) {
			ix.dirs[d] = true
		}
	}
}

// isDir reports whether d is a directory holding a file at any depth.
func (ix *index) isDir(d string) bool {
	ix.lazy()
	return ix.dirs[d]
}

// filesIn returns the files directly in directory d, sorted.
func (ix *index) filesIn(d string) []string {
	ix.lazy()
	return ix.dirFiles[d]
}

// withBase returns the files with base name b, sorted.
func (ix *index) withBase(b string) []string {
	ix.lazy()
	return ix.byBase[b]
}

// readConfig reads a small workspace file, tolerating every failure.
func (ix *index) readConfig(p string) []byte {
	if ix.read == nil {
		return nil
	}
	data, err := ix.read(p)
	if err != nil {
		return nil
	}
	return data
}

// resolve dispatches one import to its language's resolver.
func (ix *index) resolve(f *node, imp string) target {
	imp = strings.TrimSpace(imp)
	if imp == "" {
		return target{}
	}
	switch family(f.lang) {
	case "go":
		return ix.resolveGo(f, imp)
	case "python":
		return ix.resolvePython(f, imp)
	case "js":
		return ix.resolveJS(f, imp)
	case "c":
		return ix.resolveC(f, imp)
	case "jvm":
		return ix.resolveJVM(f, imp)
	case "csharp":
		return ix.resolveCSharp(f, imp)
	case "rust":
		return ix.resolveRust(f, imp)
	case "ruby":
		return ix.resolveRuby(f, imp)
	case "php":
		return ix.resolvePHP(f, imp)
	case "lua":
		return ix.resolveLua(f, imp)
	case "bash":
		return ix.resolveBash(f, imp)
	case "swift":
		return ix.resolveSwift(f, imp)
	}
	return target{}
}

func (ix *index) isFile(p string) bool {
	_, ok := ix.files[p]
	return ok
}

// firstFile returns the first of candidates that is a workspace file.
func (ix *index) firstFile(candidates ...string) string {
	for _, c := range candidates {
		if ix.isFile(c) {
			return c
		}
	}
	return ""
}

// withSuffix returns the files whose path is suffix or ends in "/"+suffix.
func (ix *index) withSuffix(suffix string) []string {
	var out []string
	for _, p := range ix.withBase(baseOf(suffix)) {
		if p == suffix || (len(p) > len(suffix) && p[len(p)-len(suffix)-1] == '/' && strings.HasSuffix(p, suffix)) {
			out = append(out, p)
		}
	}
	return out
}

// closest picks the candidate sharing the longest directory prefix with
// from; ties go to the shorter, then lexically smaller path.
func closest(from string, candidates []string) string {
	return closestPrefer(from, candidates, nil)
}

// closestPrefer is closest where, among candidates sharing as much with
// from, those satisfying prefer (when non-nil) win first.
func closestPrefer(from string, candidates []string, prefer func(string) bool) string {
	best, bestScore, bestPref := "", -1, false
	for _, c := range candidates {
		s, pref := sharedDirs(from, c), prefer != nil && prefer(c)
		better := s > bestScore
		if s == bestScore {
			better = (pref && !bestPref) ||
				(pref == bestPref && (len(c) < len(best) || (len(c) == len(best) && c < best)))
		}
		if better {
			best, bestScore, bestPref = c, s, pref
		}
	}
	return best
}

// sharedDirs counts the leading directory elements a and b have in common.
func sharedDirs(a, b string) int {
	n := 0
	for {
		i := strings.IndexByte(a, '/')
		j := strings.IndexByte(b, '/')
		if i < 0 || j < 0 || a[:i] != b[:j] {
			return n
		}
		n++
		a, b = a[i+1:], b[j+1:]
	}
}

// joinRel joins rel onto the workspace directory base; ok is false when the
// result would leave the workspace.
func joinRel(base, rel string) (string, bool) {
	if strings.HasPrefix(rel, "/") {
		return "", false
	}
	p := path.Join(base, rel)
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
}

// cleanRel normalises a workspace path; "" when it is not one.
func cleanRel(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	p = path.Clean(strings.TrimPrefix(p, "/"))
	if p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return ""
	}
	return p
}

// parentDir is path.Dir that reports false at the root.
func parentDir(d string) (string, bool) {
	if d == "." || d == "" {
		return "", false
	}
	return dirOf(d), true
}

// stem is the base name without its extension.
func stem(p string) string {
	b := path.Base(p)
	return strings.TrimSuffix(b, path.Ext(b))
}

var langAliases = map[string]string{
	"golang": "go", "py": "python", "js": "javascript", "jsx": "javascript",
	"ts": "typescript", "c++": "cpp", "cc": "cpp", "cs": "csharp", "c#": "csharp",
	"kt": "kotlin", "rb": "ruby", "sh": "bash", "shell": "bash", "zsh": "bash",
	"rs": "rust",
}

var extLangs = map[string]string{
	".go": "go", ".py": "python", ".pyi": "python", ".js": "javascript",
	".jsx": "javascript", ".mjs": "javascript", ".cjs": "javascript",
	".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
	".java": "java", ".kt": "kotlin", ".kts": "kotlin", ".rs": "rust",
	".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp",
	".hpp": "cpp", ".hh": "cpp", ".hxx": "cpp", ".cs": "csharp", ".rb": "ruby",
	".php": "php", ".swift": "swift", ".lua": "lua", ".sh": "bash", ".bash": "bash",
}

// normLang lower-cases lang, maps aliases, and infers a language from the
// file extension when lang is empty or "other".
func normLang(lang, p string) string {
	l := strings.ToLower(strings.TrimSpace(lang))
	if a, ok := langAliases[l]; ok {
		l = a
	}
	if l == "" || l == "other" {
		l = extLangs[strings.ToLower(path.Ext(p))]
	}
	return l
}

// family groups languages that share resolution rules.
func family(lang string) string {
	switch lang {
	case "javascript", "typescript", "tsx":
		return "js"
	case "c", "cpp", "objc", "objcpp":
		return "c"
	case "java", "kotlin", "scala":
		return "jvm"
	}
	return lang
}

// dirOf is path.Dir for clean relative paths, without re-cleaning: the
// directory of a root-level file is ".".
func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return "."
}

// baseOf is path.Base for clean relative paths.
func baseOf(p string) string {
	return p[strings.LastIndexByte(p, '/')+1:]
}

// nearestUp returns at[d] for the innermost directory d that is dir or one
// of its ancestors and has an entry, or nil; memo caches the answers.
func nearestUp[T any](at, memo map[string]*T, dir string) *T {
	if v, ok := memo[dir]; ok {
		return v
	}
	v := at[dir]
	if v == nil {
		if parent, ok := parentDir(dir); ok {
			v = nearestUp(at, memo, parent)
		}
	}
	memo[dir] = v
	return v
}
