package graph

import (
	"encoding/json"
	"path"
	"slices"
	"strings"
)

// relOrRoot resolves p relative to the importing file's directory, then to
// the workspace root, trying each suffix in turn ("" = p as is).
func (ix *index) relOrRoot(from, p string, suffixes ...string) string {
	for _, base := range []string{dirOf(from), "."} {
		q, ok := joinRel(base, p)
		if !ok {
			continue
		}
		for _, s := range suffixes {
			if ix.isFile(q + s) {
				return q + s
			}
		}
		if strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") {
			break // explicitly relative: never root-relative
		}
	}
	return ""
}

// resolveRuby: require_relative ("./x", "../x") against the file's
// directory; require "a/b" against lib/, the root, then any */lib/a/b.rb.
// Bare requires not in the workspace are gems or stdlib: external.
func (ix *index) resolveRuby(f *node, p string) target {
	if strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") {
		if q, ok := joinRel(dirOf(f.Path), p); ok {
			return fileTarget(ix.firstFile(q, q+".rb"))
		}
		return target{}
	}
	if strings.HasPrefix(p, "/") {
		return target{ext: true}
	}
	rb := strings.TrimSuffix(p, ".rb") + ".rb"
	if hit := ix.firstFile(path.Join("lib", rb), path.Clean(rb)); hit != "" {
		return fileTarget(hit)
	}
	if hit := closest(f.Path, ix.withSuffix(path.Join("lib", rb))); hit != "" {
		return fileTarget(hit)
	}
	return target{ext: true}
}

type phpState struct {
	classes  map[string][]string // `A\B\C` (namespace + file stem) -> files
	psr4     []phpPrefix         // from composer.json autoload(-dev).psr-4
	prefixes map[string]bool     // first components of declared namespaces and PSR-4 prefixes
}

type phpPrefix struct{ ns, dir string }

func (ix *index) phpInit() *phpState {
	if ix.phpSt != nil {
		return ix.phpSt
	}
	st := &phpState{classes: make(map[string][]string), prefixes: make(map[string]bool)}
	for _, p := range ix.order {
		if ix.files[p].lang != "php" {
			continue
		}
		key := stem(p)
		if ns := strings.Trim(ix.files[p].Package, `\`); ns != "" {
			key = ns + `\` + key
			st.prefixes[firstNS(ns)] = true
		}
		st.classes[key] = append(st.classes[key], p)
	}
	for _, p := range ix.configs["composer.json"] {
		var raw struct {
			Autoload    struct{ PSR4 map[string]any } `json:"autoload"`
			AutoloadDev struct{ PSR4 map[string]any } `json:"autoload-dev"`
		}
		if data := ix.readConfig(p); data == nil || json.Unmarshal(data, &raw) != nil {
			continue
		}
		for _, m := range []map[string]any{raw.Autoload.PSR4, raw.AutoloadDev.PSR4} {
			st.addPSR4(dirOf(p), m)
		}
	}
	slices.SortStableFunc(st.psr4, func(a, b phpPrefix) int { return len(b.ns) - len(a.ns) })
	ix.phpSt = st
	return st
}

func (st *phpState) addPSR4(base string, m map[string]any) {
	for ns, v := range m {
		var dirs []string
		switch x := v.(type) {
		case string:
			dirs = []string{x}
		case []any:
			for _, d := range x {
				if s, ok := d.(string); ok {
					dirs = append(dirs, s)
				}
			}
		}
		ns = strings.Trim(ns, `\`)
		for _, d := range dirs {
			if q, ok := joinRel(base, d); ok {
				st.psr4 = append(st.psr4, phpPrefix{ns: ns, dir: q})
				st.prefixes[firstNS(ns)] = true
			}
		}
	}
}

func firstNS(ns string) string {
	if i := strings.IndexByte(ns, '\\'); i >= 0 {
		return ns[:i]
	}
	return ns
}

// resolvePHP: include/require paths relative to the file, then the root;
// `use A\B\C` through declared namespaces, composer PSR-4 prefixes, then a
// file ending in A/B/C.php (shortening the namespace from the left).
func (ix *index) resolvePHP(f *node, p string) target {
	p = strings.TrimSpace(p)
	if strings.HasSuffix(p, ".php") || strings.HasSuffix(p, ".inc") || strings.Contains(p, "/") {
		if strings.HasPrefix(p, "/") { // __DIR__ . '/x.php' arrives as "/x.php"
			p = "." + p
		}
		return fileTarget(ix.relOrRoot(f.Path, p, ""))
	}
	st := ix.phpInit()
	for _, kw := range []string{"function ", "const "} {
		p = strings.TrimPrefix(p, kw)
	}
	if i := strings.Index(p, " as "); i >= 0 {
		p = p[:i]
	}
	p = strings.Trim(strings.TrimSpace(p), `\`)
	if hit := closest(f.Path, st.classes[p]); hit != "" {
		return fileTarget(hit)
	}
	for _, pre := range st.psr4 {
		rest, ok := strings.CutPrefix(p, pre.ns)
		if !ok || (pre.ns != "" && rest != "" && rest[0] != '\\') {
			continue
		}
		rel := strings.ReplaceAll(strings.TrimPrefix(rest, `\`), `\`, "/") + ".php"
		if q, ok := joinRel(pre.dir, rel); ok && ix.isFile(q) {
			return fileTarget(q)
		}
	}
	rel := strings.ReplaceAll(p, `\`, "/")
	for {
		if hit := closest(f.Path, ix.withSuffix(rel+".php")); hit != "" {
			return fileTarget(hit)
		}
		i := strings.IndexByte(rel, '/')
		if i < 0 || strings.Count(rel, "/") < 2 {
			break
		}
		rel = rel[i+1:]
	}
	return target{ext: !st.prefixes[firstNS(p)]}
}

// resolveLua: require "a.b" (or "a/b") as a/b.lua or a/b/init.lua under the
// root, lua/, src/ and the file's directory.
func (ix *index) resolveLua(f *node, p string) target {
	rel := strings.ReplaceAll(strings.TrimSuffix(p, ".lua"), ".", "/")
	roots := []string{".", "lua", "src", dirOf(f.Path)}
	for _, r := range roots {
		if q, ok := joinRel(r, rel); ok {
			if hit := ix.firstFile(q+".lua", q+"/init.lua"); hit != "" {
				return fileTarget(hit)
			}
		}
	}
	top := firstElem(rel)
	if luaStd[top] {
		return target{ext: true}
	}
	for _, r := range roots {
		q := path.Join(r, top)
		if ix.isDir(q) || ix.isFile(q+".lua") {
			return target{}
		}
	}
	return target{ext: true}
}

var luaStd = setOf("string", "table", "math", "io", "os", "coroutine", "debug", "utf8", "package", "bit", "bit32", "jit", "ffi")

// resolveBash: sourced files relative to the file's directory, then the
// root. A leading variable ("$DIR/lib.sh", "${BASH_SOURCE%/*}/x.sh") is
// taken to mean the script's own directory.
func (ix *index) resolveBash(f *node, p string) target {
	p = strings.Trim(p, `"'`)
	if strings.HasPrefix(p, "$") {
		rest := p[shellVarLen(p):]
		if !strings.HasPrefix(rest, "/") {
			return target{}
		}
		p = "." + rest
	} else if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") {
		return target{ext: true}
	}
	return fileTarget(ix.relOrRoot(f.Path, p, ""))
}

// shellVarLen returns the length of the variable expansion p starts with:
// $NAME, ${...} or $(...), with nesting.
func shellVarLen(p string) int {
	if len(p) < 2 || (p[1] != '{' && p[1] != '(') {
		i := 1
		for i < len(p) && (p[i] == '_' || 'a' <= p[i]|0x20 && p[i]|0x20 <= 'z' || '0' <= p[i] && p[i] <= '9') {
			i++
		}
		return i
	}
	open, depth := p[1], 0
	closer := byte('}')
	if open == '(' {
		closer = ')'
	}
	for i := 1; i < len(p); i++ {
		switch p[i] {
		case open:
			depth++
		case closer:
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return len(p)
}

// resolveSwift: `import Foo` names a module; a SwiftPM target lives in
// Sources/Foo of an enclosing package. Other modules are external.
func (ix *index) resolveSwift(f *node, p string) target {
	p = strings.TrimSpace(p)
	for _, kw := range []string{"@testable ", "struct ", "class ", "enum ", "protocol ", "func ", "typealias ", "var ", "let "} {
		p = strings.TrimPrefix(p, kw)
	}
	mod := firstDotted(strings.TrimSpace(p))
	for d := dirOf(f.Path); ; {
		if q := path.Join(d, "Sources", mod); ix.isDir(q) {
			return target{to: q, dir: true}
		}
		parent, ok := parentDir(d)
		if !ok {
			return target{ext: true}
		}
		d = parent
	}
}
