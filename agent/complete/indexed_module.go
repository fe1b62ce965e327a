package complete

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/python"
	"github.com/parleyhq/parley/index/syntax"
)

// maxStarModules bounds the star-imported modules moduleMembers follows.
const maxStarModules = 4

// starImport is a Python `from m import *` line.
var starImport = regexp.MustCompile(`(?m)^from\s+([.\w]+)\s+import\s+\*`)

// moduleMembers lists the top-level declarations of the module mod (x
// is the name it is used by), with, in Python, those of the modules it
// star-imports (`os.path` is posixpath, whose isdir comes from
// genericpath's `from genericpath import *`), ranked together.
func moduleMembers(src Source, c *snippets, mod, x, partial string) {
	mods := []string{mod}
	if python.IsFile(mod) {
		mods = append(mods, starModules(src, mod)...)
	}
	var hits []index.SymbolHit
	seen := map[string]bool{}
	for _, p := range mods {
		syms, err := src.Store.Symbols(p)
		if err != nil {
			continue
		}
		for _, s := range syms {
			if s.Container != "" || seen[s.Name] || s.Kind == extract.KindVariable && strings.HasPrefix(s.Name, "_") {
				continue
			}
			seen[s.Name] = true
			hits = append(hits, index.SymbolHit{Path: p, Symbol: s})
		}
	}
	rankMembers(src, hits, partial)
	why := fmt.Sprintf("declarations of module %s", x)
	if len(mods) > 1 {
		why += fmt.Sprintf(" (%s, star-importing %s)", mod, strings.Join(mods[1:], ", "))
	}
	addHits(c, hits, why)
}

// starModules are the module files mod's `from m import *` lines name,
// in order.
func starModules(src Source, mod string) []string {
	if src.Read == nil {
		return nil
	}
	text, err := src.Read(mod)
	if err != nil {
		return nil
	}
	ms := starImport.FindAllSubmatch(text, maxStarModules)
	if len(ms) == 0 {
		return nil
	}
	r := syntax.NewResolver(src.Store, src.Read)
	defer r.Release()
	var out []string
	for _, m := range ms {
		if f := python.ImportModule(r, mod, string(m[1])); f != "" && f != mod && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}
