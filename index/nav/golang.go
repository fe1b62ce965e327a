package nav

import (
	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/golang"
)

// What the callers of nav take from the Go resolution (index/golang)
// besides the order of attempts: references to a declaration they already
// hold, by qualified name, and the build a rename must stay within.

// ErrNoReferences is wrapped by the error References returns at a
// position that names nothing references can be asked of (a Go
// predeclared name, a keyword, a word in a comment or string).
var ErrNoReferences = golang.ErrNoReferences

// DeclReferences returns the references that can mean decl, a
// declaration of the store (golang.DeclReferences), at most limit (0:
// all).
func DeclReferences(s *index.Store, decl index.NameHit, limit int) ([]index.RefHit, error) {
	return golang.DeclReferences(s, decl, limit)
}

// DeclFileReferences is DeclReferences within file p (document
// highlights).
func DeclFileReferences(s *index.Store, decl index.NameHit, p string) ([]index.RefHit, error) {
	return golang.DeclFileReferences(s, decl, p)
}

// ReferencesTo returns the references to a qualified name ("pkg.F",
// "T.M"), resolved false when it names no one declaration
// (golang.ReferencesTo).
func ReferencesTo(s *index.Store, qualified string, limit int) (hits []index.RefHit, resolved bool, err error) {
	return golang.ReferencesTo(s, qualified, limit)
}

// BuildScope reports, for a Go file from and a declaration in decl, which
// files are in from's build (golang.BuildScope).
func BuildScope(s *index.Store, from, decl string) func(p string) bool {
	return golang.BuildScope(s, from, decl)
}
