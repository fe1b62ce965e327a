package tools

// Helpers shared by the index tools (outline, get_symbol, find_definition,
// find_references, get_dependencies, get_dependents, get_complexity,
// get_todos). They read Env.Index, never close its stores, and report a
// missing index or an unindexed file as model-facing results.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
)

// noIndex is the result of every index tool when the session has none.
func noIndex() *Result {
	return Errorf("index unavailable: this session has no code index; use grep, glob and read_file instead")
}

// scope is the part of an index a query covers: a whole store, a
// directory (prefix) or one file.
type scope struct {
	store  *index.Store
	root   string // canonical root of the store
	prefix string // "" = whole store; "dir/" = a directory; else a file path
	file   bool
}

// contains reports whether the store-relative path is in scope.
func (s scope) contains(rel string) bool {
	if s.file {
		return rel == s.prefix
	}
	return strings.HasPrefix(rel, s.prefix)
}

// indexScopes resolves an optional path to the scopes it covers: every
// store when p is empty, else the store holding p, narrowed to it.
func indexScopes(env *Env, p string) ([]scope, *Result) {
	if env.Index == nil {
		return nil, noIndex()
	}
	if p == "" {
		var out []scope
		for _, rs := range env.Index.Stores() {
			out = append(out, scope{store: rs.Store, root: canonicalRoot(rs.Root)})
		}
		if len(out) == 0 {
			return nil, noIndex()
		}
		return out, nil
	}
	abs, _, res := resolveArg(env, p)
	if res != nil {
		return nil, res
	}
	store, rel, ok := env.Index.StoreFor(abs)
	if !ok {
		return nil, Errorf("%s is not under an indexed root", displayPath(env, abs))
	}
	sc := scope{store: store, root: rootOfStore(abs, rel)}
	fi, err := os.Stat(abs)
	switch {
	case rel == "." || rel == "":
	case err == nil && fi.IsDir():
		sc.prefix = rel + "/"
	default:
		sc.prefix, sc.file = rel, true
	}
	return []scope{sc}, nil
}

// indexedFile resolves p to one indexed file.
func indexedFile(env *Env, p string) (scope, *Result) {
	scs, res := indexScopes(env, p)
	if res != nil {
		return scope{}, res
	}
	sc := scs[0]
	if !sc.file {
		return scope{}, Errorf("%s is a directory; give a file", p)
	}
	if _, ok := sc.store.Header(sc.prefix); !ok {
		return scope{}, Errorf("%s is not in the index (ignored, new since the last indexing run, or not a source file)", displayRel(env, sc.root, sc.prefix))
	}
	return sc, nil
}

// rootOfStore recovers the root directory from a path and its relative form.
func rootOfStore(abs, rel string) string {
	if rel == "." || rel == "" {
		return abs
	}
	root := strings.TrimSuffix(filepath.ToSlash(abs), "/"+rel)
	return filepath.FromSlash(root)
}

// canonicalRoot evaluates symlinks so paths compare with Roots.Paths.
func canonicalRoot(root string) string {
	if real, err := filepath.EvalSymlinks(root); err == nil {
		return real
	}
	return root
}

// absIn joins a store-relative path to its root.
func (s scope) absIn(rel string) string {
	return filepath.Join(s.root, filepath.FromSlash(rel))
}

// qualified names a symbol with its container ("Server.Serve").
func qualified(sym extract.Symbol) string {
	if sym.Container == "" {
		return sym.Name
	}
	return sym.Container + "." + sym.Name
}

// symbolLine is the one-line description used by several tools.
func symbolLine(env *Env, root, path string, sym extract.Symbol) string {
	s := fmt.Sprintf("%s:%d: %s %s", displayRel(env, root, path), sym.Selection.Start.Line+1, sym.Kind, qualified(sym))
	if sym.Signature != "" {
		s += " — " + sym.Signature
	}
	return s
}

// parseKind checks an optional kind filter.
func parseKind(k string) (extract.SymbolKind, *Result) {
	if k == "" {
		return 0, nil
	}
	kind, ok := extract.KindByName(strings.ToLower(k))
	if !ok {
		var names []string
		for sk := extract.KindFile; sk <= extract.KindTypeParameter; sk++ {
			names = append(names, sk.String())
		}
		return 0, Errorf("unknown kind %q; use one of %s", k, strings.Join(names, ", "))
	}
	return kind, nil
}

// splitQualified splits "Server.Serve" into container "Server" and name
// "Serve"; a plain name has no container.
func splitQualified(name string) (container, base string) {
	if i := strings.LastIndexAny(name, ".:"); i > 0 && i < len(name)-1 {
		return strings.TrimRight(name[:i], ".:"), name[i+1:]
	}
	return "", name
}

// containerMatches reports whether a symbol's container ends with want
// ("pkg.Outer.Inner" matches "Inner" and "Outer.Inner").
func containerMatches(have, want string) bool {
	return want == "" || have == want || strings.HasSuffix(have, "."+want)
}
