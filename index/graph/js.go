package graph

import (
	"encoding/json"
	"path"
	"slices"
	"strings"
)

type jsState struct {
	configs map[string]*tsConfig // directory -> tsconfig.json/jsconfig.json there
	nearest map[string]*tsConfig // cache: directory -> nearest config (may be nil)
	pkgs    map[string]*jsPackage
}

// tsConfig is the part of a tsconfig.json that affects module resolution,
// with every path already made workspace-relative.
type tsConfig struct {
	baseURL  string // "" when unset
	pathsDir string // directory "paths" targets are relative to
	paths    []tsPath
}

type tsPath struct {
	prefix, suffix string
	wildcard       bool
	targets        []string
}

// jsPackage is a workspace package.json with a name (monorepo package).
type jsPackage struct {
	dir     string
	entries []string // main/module/types/source/exports entry points
}

var (
	tsExts = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".json"}
	jsExts = []string{".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".d.ts", ".mts", ".cts", ".json"}
	// jsToTS maps an extension written in an ESM TypeScript import to the
	// extensions of the source file it stands for.
	jsToTS = map[string][]string{
		".js": {".ts", ".tsx", ".d.ts"}, ".jsx": {".tsx"},
		".mjs": {".mts", ".d.mts"}, ".cjs": {".cts", ".d.cts"},
	}
)

func (ix *index) jsInit() *jsState {
	if ix.jsSt != nil {
		return ix.jsSt
	}
	st := &jsState{
		configs: make(map[string]*tsConfig),
		nearest: make(map[string]*tsConfig),
		pkgs:    make(map[string]*jsPackage),
	}
	for _, name := range []string{"jsconfig.json", "tsconfig.json"} {
		for _, p := range ix.configs[name] {
			if !strings.Contains(p, "node_modules/") {
				if c := ix.loadTSConfig(p, 0); c != nil {
					st.configs[dirOf(p)] = c
				}
			}
		}
	}
	for _, p := range ix.configs["package.json"] {
		if strings.Contains(p, "node_modules/") {
			continue
		}
		name, pkg := parsePackageJSON(ix.readConfig(p), dirOf(p))
		if name != "" && st.pkgs[name] == nil {
			st.pkgs[name] = pkg
		}
	}
	ix.jsSt = st
	return st
}

// loadTSConfig parses a tsconfig, following a relative "extends" chain for
// the options the file itself does not set.
func (ix *index) loadTSConfig(p string, depth int) *tsConfig {
	var raw struct {
		Extends         any `json:"extends"`
		CompilerOptions struct {
			BaseURL *string             `json:"baseUrl"`
			Paths   map[string][]string `json:"paths"`
		} `json:"compilerOptions"`
	}
	data := ix.readConfig(p)
	if data == nil || decodeJSONC(data, &raw) != nil {
		return nil
	}
	dir := dirOf(p)
	c := &tsConfig{}
	if ext, ok := raw.Extends.(string); ok && depth < 5 && strings.HasPrefix(ext, ".") {
		if !strings.HasSuffix(ext, ".json") {
			ext += ".json"
		}
		if q, ok := joinRel(dir, ext); ok {
			if parent := ix.loadTSConfig(q, depth+1); parent != nil {
				*c = *parent
			}
		}
	}
	if b := raw.CompilerOptions.BaseURL; b != nil {
		if q, ok := joinRel(dir, *b); ok {
			c.baseURL = q
		}
	}
	if len(raw.CompilerOptions.Paths) > 0 {
		c.paths, c.pathsDir = nil, dir
		if c.baseURL != "" {
			c.pathsDir = c.baseURL
		}
		for pat, targets := range raw.CompilerOptions.Paths {
			tp := tsPath{prefix: pat, targets: targets}
			if i := strings.IndexByte(pat, '*'); i >= 0 {
				tp.prefix, tp.suffix, tp.wildcard = pat[:i], pat[i+1:], true
			}
			c.paths = append(c.paths, tp)
		}
		// Longest prefix wins, as in TypeScript; exact patterns first.
		slices.SortFunc(c.paths, func(a, b tsPath) int {
			if a.wildcard != b.wildcard {
				if !a.wildcard {
					return -1
				}
				return 1
			}
			if len(a.prefix) != len(b.prefix) {
				return len(b.prefix) - len(a.prefix)
			}
			return strings.Compare(a.prefix, b.prefix)
		})
	}
	return c
}

func (st *jsState) nearestConfig(dir string) *tsConfig {
	return nearestUp(st.configs, st.nearest, dir)
}

// resolveJS resolves relative specifiers by probing extensions and index
// files, and bare specifiers through tsconfig paths/baseUrl and workspace
// packages; other bare specifiers are external node packages.
func (ix *index) resolveJS(f *node, p string) target {
	st := ix.jsInit()
	jsFirst := f.lang == "javascript"
	dir := dirOf(f.Path)
	if p == "." || p == ".." || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") {
		if q, ok := joinRel(dir, p); ok {
			return fileTarget(ix.probeJS(q, jsFirst))
		}
		return target{}
	}
	if strings.HasPrefix(p, "/") {
		return target{}
	}
	if strings.HasPrefix(p, "node:") || strings.Contains(p, "://") {
		return target{ext: true}
	}
	if c := st.nearestConfig(dir); c != nil {
		hit, matched := ix.probeTSPaths(c, p, jsFirst)
		if hit != "" || matched {
			return fileTarget(hit) // a matched alias is the workspace's, even when missing
		}
	}
	name, sub := splitPackageSpec(p)
	if pkg := st.pkgs[name]; pkg != nil {
		return ix.resolveJSPackage(pkg, sub, jsFirst)
	}
	return target{ext: true}
}

// probeTSPaths applies the config's "paths" (the first matching pattern
// decides; matched reports that one did), then its baseUrl.
func (ix *index) probeTSPaths(c *tsConfig, p string, jsFirst bool) (hit string, matched bool) {
	for _, tp := range c.paths {
		var star string
		if tp.wildcard {
			if len(p) < len(tp.prefix)+len(tp.suffix) || !strings.HasPrefix(p, tp.prefix) || !strings.HasSuffix(p, tp.suffix) {
				continue
			}
			star = p[len(tp.prefix) : len(p)-len(tp.suffix)]
		} else if p != tp.prefix {
			continue
		}
		for _, t := range tp.targets {
			if q, ok := joinRel(c.pathsDir, strings.Replace(t, "*", star, 1)); ok {
				if hit := ix.probeJS(q, jsFirst); hit != "" {
					return hit, true
				}
			}
		}
		return "", true
	}
	if c.baseURL != "" {
		if q, ok := joinRel(c.baseURL, p); ok {
			return ix.probeJS(q, jsFirst), false
		}
	}
	return "", false
}

func (ix *index) resolveJSPackage(pkg *jsPackage, sub string, jsFirst bool) target {
	if sub != "" {
		for _, base := range []string{pkg.dir, path.Join(pkg.dir, "src")} {
			if q, ok := joinRel(base, sub); ok {
				if hit := ix.probeJS(q, jsFirst); hit != "" {
					return fileTarget(hit)
				}
			}
		}
	} else {
		for _, e := range pkg.entries {
			if q, ok := joinRel(pkg.dir, e); ok {
				if hit := ix.probeJS(q, jsFirst); hit != "" {
					return fileTarget(hit)
				}
			}
		}
		if hit := ix.probeJS(path.Join(pkg.dir, "src"), jsFirst); hit != "" {
			return fileTarget(hit)
		}
	}
	return target{to: pkg.dir, dir: true}
}

// probeJS finds the file a module path denotes: the exact file, the
// TypeScript source of a ".js" specifier, the path plus an extension, or an
// index file of the directory.
func (ix *index) probeJS(p string, jsFirst bool) string {
	if p == "" {
		return ""
	}
	if ix.isFile(p) {
		return p
	}
	if ext := path.Ext(p); jsToTS[ext] != nil {
		s := strings.TrimSuffix(p, ext)
		for _, e := range jsToTS[ext] {
			if ix.isFile(s + e) {
				return s + e
			}
		}
	}
	exts := tsExts
	if jsFirst {
		exts = jsExts
	}
	for _, e := range exts {
		if ix.isFile(p + e) {
			return p + e
		}
	}
	if !ix.isDir(p) {
		return ""
	}
	for _, e := range exts {
		if q := p + "/index" + e; ix.isFile(q) {
			return q
		}
	}
	return ""
}

// splitPackageSpec splits "@scope/pkg/sub/path" into "@scope/pkg" and
// "sub/path", and "pkg/sub" into "pkg" and "sub".
func splitPackageSpec(p string) (name, sub string) {
	n := 1
	if strings.HasPrefix(p, "@") {
		n = 2
	}
	parts := strings.SplitN(p, "/", n+1)
	if len(parts) <= n {
		return p, ""
	}
	return strings.Join(parts[:n], "/"), parts[n]
}

// parsePackageJSON returns the package name and its entry points.
func parsePackageJSON(data []byte, dir string) (string, *jsPackage) {
	var raw struct {
		Name    string `json:"name"`
		Source  string `json:"source"`
		Module  string `json:"module"`
		Main    string `json:"main"`
		Types   string `json:"types"`
		Typings string `json:"typings"`
		Exports any    `json:"exports"`
	}
	if data == nil || json.Unmarshal(data, &raw) != nil || raw.Name == "" {
		return "", nil
	}
	pkg := &jsPackage{dir: dir}
	for _, e := range append([]string{raw.Source}, exportEntries(raw.Exports, 0)...) {
		if e != "" {
			pkg.entries = append(pkg.entries, e)
		}
	}
	for _, e := range []string{raw.Module, raw.Main, raw.Types, raw.Typings} {
		if e != "" {
			pkg.entries = append(pkg.entries, e)
		}
	}
	return raw.Name, pkg
}

// exportEntries extracts the root entry points of an "exports" field.
func exportEntries(v any, depth int) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case map[string]any:
		if depth > 3 {
			return nil
		}
		if dot, ok := x["."]; ok {
			return exportEntries(dot, depth+1)
		}
		var out []string
		for _, cond := range []string{"source", "development", "import", "module", "default", "require", "node", "types"} {
			out = append(out, exportEntries(x[cond], depth+1)...)
		}
		return out
	}
	return nil
}
