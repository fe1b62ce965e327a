package python

import (
	"path"
	"strings"

	"github.com/parleyhq/parley/index/syntax"
)

// importModule resolves an import as the extractor stored it ("a.b",
// ".x", "..") from file p to a module file, or "".
func (r *resolver) importModule(p, imp string) string {
	if !strings.HasPrefix(imp, ".") {
		return r.moduleValue(p, imp).Module
	}
	dots := len(imp) - len(strings.TrimLeft(imp, "."))
	dir := path.Dir(p)
	for range dots - 1 {
		if dir == "." {
			return ""
		}
		dir = path.Dir(dir)
	}
	if rest := imp[dots:]; rest != "" {
		return r.moduleFile(path.Join(dir, strings.ReplaceAll(rest, ".", "/")))
	}
	return r.moduleFile(path.Join(dir, "__init__"))
}

// ImportModule resolves an import of file p, as the extractor stored it
// ("a.b", ".x", ".."), to a module file of the store, or "". r holds the
// store's tree cache.
func ImportModule(r *syntax.Resolver, p, imp string) string {
	return (&resolver{r}).importModule(p, imp)
}
