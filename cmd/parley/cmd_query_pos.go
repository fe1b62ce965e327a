package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/nav"
)

// A FILE:LINE:COL argument of `parley defs` and `parley refs` asks what
// the identifier there means, answered as the editor's go-to-definition
// and find-references answer it (nav.DefinitionsAt,
// ReferencesAt), from the files as they are on disk. LINE and COL are
// 1-based, COL in bytes, as gopls's command line counts them. Unlike the
// server, which answers from the name ranking when resolving Python or
// TypeScript takes longer than its budget, the CLI waits for resolution.

var posArg = regexp.MustCompile(`^(.+):([0-9]+):([0-9]+)$`)

// position is a resolved FILE:LINE:COL argument.
type position struct {
	rel  string
	src  []byte
	off  int
	name string
	read nav.SourceReader // the store's files, from disk
}

// parsePosition returns the position an argument names; ok is false when
// the argument is not of the FILE:LINE:COL form (it is then a name).
func parsePosition(st *index.Store, root, arg string) (p position, ok bool, err error) {
	m := posArg.FindStringSubmatch(arg)
	if m == nil {
		return position{}, false, nil
	}
	rel, err := fileArg(st, root, m[1])
	if err != nil {
		return position{}, true, err
	}
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return position{}, true, fmt.Errorf("read %s: %w", rel, err)
	}
	line, _ := strconv.Atoi(m[2])
	col, _ := strconv.Atoi(m[3])
	off, err := index.LineColOffset(src, line, col)
	if err != nil {
		return position{}, true, fmt.Errorf("%s: %w", arg, err)
	}
	name, found := index.IdentAt(src, off)
	if !found {
		return position{}, true, fmt.Errorf("%s: no identifier there", arg)
	}
	read := func(rel string) ([]byte, error) { return os.ReadFile(filepath.Join(root, filepath.FromSlash(rel))) }
	return position{rel: rel, src: src, off: off, name: name, read: read}, true, nil
}
