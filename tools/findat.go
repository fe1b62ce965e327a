package tools

import (
	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/nav"
)

// spot is a position find_definition and find_references were given
// (path, line, column): the identifier there, read through the session's
// file view (an editor's unsaved buffer included), which the language
// server's definition and references resolve the same way
// (nav.DefinitionsAt, ReferencesAt), except that the tools wait
// for Python and TypeScript resolution however long it takes, where the
// server answers from the name ranking past its budget.
type spot struct {
	sc   scope
	src  []byte
	off  int
	name string
	read nav.SourceReader // the store's files through the file view
}

// spotAt resolves path, line and column; res is the model-facing error
// when they do not name an identifier in an indexed file, or name one
// other than name (when name is not empty).
func spotAt(env *Env, path string, line, column int, name string) (*spot, *Result) {
	if path == "" {
		return nil, Errorf("line and column need the path of the file they are in")
	}
	sc, res := indexedFile(env, path)
	if res != nil {
		return nil, res
	}
	abs := sc.absIn(sc.prefix)
	if env.Files == nil {
		return nil, Errorf("no file view in this session")
	}
	src, _, err := env.Files.Read(abs)
	if err != nil {
		return nil, Errorf("read %s: %v", path, err)
	}
	off, err := index.LineColOffset(src, line, column)
	if err != nil {
		return nil, Errorf("%s: %v", path, err)
	}
	ident, ok := index.IdentAt(src, off)
	if !ok {
		return nil, Errorf("%s:%d:%d is not on an identifier", path, line, column)
	}
	if name != "" {
		if _, last := splitQualified(name); last != ident {
			return nil, Errorf("%s:%d:%d is on %s, not %s", path, line, column, ident, name)
		}
	}
	read := func(rel string) ([]byte, error) {
		content, _, err := env.Files.Read(sc.absIn(rel))
		return content, err
	}
	return &spot{sc: sc, src: src, off: off, name: ident, read: read}, nil
}
