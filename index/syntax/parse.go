package syntax

import (
	"context"

	"github.com/parleyhq/parley/index/extract"
)

// ParsedAs is file() for a given grammar. Files are cached under the
// grammar and path: one resolver may read a path with another grammar
// than the last.
func (r *Resolver) ParsedAs(rel string, src []byte, lang string) *File {
	key := lang + ":" + rel
	if f, ok := r.Files[key]; ok {
		return f
	}
	r.Files[key] = nil
	if src == nil {
		b, err := r.Read(rel)
		if err != nil {
			return nil
		}
		src = b
	}
	f, h := r.Cache.Get(key, src)
	if f == nil {
		if !r.Step() || r.Parsed+len(src) > ParseBytes {
			return nil
		}
		r.Parsed += len(src)
		tree, err := extract.ParseTree(context.Background(), lang, src, ParseBudget)
		if err != nil {
			return nil
		}
		f = &File{Rel: rel, Src: src, Tree: tree}
		r.Cache.Put(key, f, h)
	}
	r.Files[key] = f
	return f
}
