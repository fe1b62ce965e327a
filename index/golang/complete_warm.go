package golang

import (
	"go/parser"
	"go/token"
	"path"

	"github.com/parleyhq/parley/index"
)

// WarmCompletion builds, ahead of the first completion in the Go file
// from (content src), the tables CompletionAt reads: its directory's
// symbols and the names its package uses, and the exported API of each
// package it imports for the port the file builds on. The language server
// calls it when the editor opens a document, usually well before the
// user types: the first request in a directory otherwise decodes all of
// this (a file importing syscall: tens of ms). Safe for concurrent use
// with CompletionAt; it parses only the import block.
func WarmCompletion(s *index.Store, from string, src []byte) {
	f, _ := parser.ParseFile(token.NewFileSet(), from, src, parser.ImportsOnly|parser.SkipObjectResolution)
	if f == nil {
		return
	}
	g := goDirsOf(s)
	if d, ok := g.dirOf(path.Dir(from)); ok {
		g.symbolsOf(d)
		g.refsOf(d, from)
	}
	port := index.PortOf(from, buildOf(s, from))
	dirs := g.list()
	for _, ip := range (&goTypeResolver{st: s}).fileContext(from, f).imports {
		t := goType{imp: ip}
		for _, d := range dirs {
			if t.inDir(d.dir) {
				g.symbolsOf(d).exportedAPI(s, port)
			}
		}
	}
}
