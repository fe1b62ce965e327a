package nav

import (
	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/locals"
	"github.com/parleyhq/parley/index/python"
	"github.com/parleyhq/parley/index/syntax"
	"github.com/parleyhq/parley/index/typescript"
)

// WarmSyntax parses into the tree cache the Python, TypeScript or
// JavaScript file from (its content src) and the modules its indexed
// imports lead to, or the buffer alone in a language LocalAt covers, so
// that a later query-time resolution of a use in it finds them parsed: the language server calls it when the editor opens a
// document, which is usually well before it asks anything, and a cold
// parse is what sends most requests past the server's budget.
//
// A Python, TypeScript or JavaScript buffer whose content the index holds
// is not warmed: its requests are answered from the stored descriptors
// (python/idx.go, typescript/idx.go), which parse nothing, and a warming
// parse would only delay the request that cancels it.
//
// Each file is parsed by a resolver of its own, taking the tree cache
// for one parse at a time, so a request waits behind at most one parse;
// it stops at CancelResolutions (a request wanting the store), within
// the step and byte bounds of one resolution. It returns the files now in
// the cache, the buffer first.
func WarmSyntax(s *index.Store, from string, src []byte, read syntax.SourceReader) []string {
	lang := ""
	switch {
	case (python.IsFile(from) || typescript.IsFile(from)) && syntax.IndexedContent(s, from, src):
		return nil
	case python.IsFile(from):
		lang = "python"
	case typescript.IsFile(from):
		lang = typescript.Grammar(from)
	default:
		return locals.Warm(s, from, src)
	}
	var warm []string
	parsed := 0
	// parse caches rel (content src, or read when nil) unless cancelled
	// or over the bounds; ok is false when warming should stop.
	parse := func(rel string, src []byte, lang string, imports func(r *syntax.Resolver) []string) (next []string, ok bool) {
		r := syntax.NewResolver(s, read)
		defer r.Release()
		r.Parsed = parsed
		if r.Cancelled() {
			return nil, false
		}
		f := r.ParsedAs(rel, src, lang)
		parsed = r.Parsed
		if f == nil {
			return nil, !r.Cancelled() && parsed < syntax.ParseBytes
		}
		warm = append(warm, rel)
		if imports != nil {
			next = imports(r)
		}
		return next, true
	}
	mods, ok := parse(from, src, lang, func(r *syntax.Resolver) []string {
		det, err := s.Detail(from)
		if err != nil {
			return nil // not indexed yet: its imports are unknown
		}
		var mods []string
		seen := map[string]bool{from: true}
		for _, im := range det.Imports {
			mod := ""
			if lang == "python" {
				mod = python.ImportModule(r, from, im.Path)
			} else {
				mod = typescript.ModuleFile(r, from, im.Path)
			}
			if mod != "" && !seen[mod] {
				seen[mod] = true
				mods = append(mods, mod)
			}
		}
		return mods
	})
	for i := 0; ok && i < len(mods) && i < syntax.StepLimit; i++ {
		ml := "python"
		if !python.IsFile(mods[i]) {
			ml = typescript.Grammar(mods[i])
		}
		_, ok = parse(mods[i], nil, ml, nil)
	}
	return warm
}
