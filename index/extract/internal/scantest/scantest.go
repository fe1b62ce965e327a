// Package scantest holds what the tests of the hand-written scanners
// (index/extract/*scan) share: the tree-sitter path's records of a
// source, which a scanner must reproduce, whether its tree has an error,
// and a description of the first differences between two results. It is imported by tests only.
package scantest

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/index/extract"
)

// TreeSitter is the tree-sitter path's result for src, a file named name
// in lang, extracted with opts (TreeSitter set: no scanner).
func TreeSitter(t testing.TB, lang, name string, src []byte, opts extract.Options) *extract.Result {
	t.Helper()
	opts.TreeSitter = true
	res, err := extract.For(lang).Extract(context.Background(), name, src, opts)
	if err != nil {
		t.Fatalf("tree-sitter: %v", err)
	}
	return res
}

// HasSyntaxError reports whether tree-sitter's tree of src in lang, parsed
// within budget, has an error node.
func HasSyntaxError(t testing.TB, lang string, src []byte, budget time.Duration) bool {
	t.Helper()
	tree, err := extract.ParseTree(context.Background(), lang, src, budget)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	defer tree.Release()
	return tree.Root().HasError()
}

// Diff describes the first difference of each kind of record between the
// tree-sitter path's result (want) and a scanner's (got); "" when equal.
// Descriptors are not compared.
func Diff(want, got *extract.Result) string {
	var b strings.Builder
	if want.Partial != got.Partial {
		fmt.Fprintf(&b, "partial %q vs %q\n", want.Partial, got.Partial)
	}
	first(&b, "symbols", want.Symbols, got.Symbols)
	first(&b, "refs", want.Refs, got.Refs)
	first(&b, "imports", want.Imports, got.Imports)
	first(&b, "todos", want.Todos, got.Todos)
	return b.String()
}

// first writes the first element where two record lists differ.
func first[T any](b *strings.Builder, kind string, want, got []T) {
	for i := 0; i < len(want) || i < len(got); i++ {
		if i >= len(want) || i >= len(got) {
			fmt.Fprintf(b, "%s: %d in tree-sitter's vs %d in the scanner's\n", kind, len(want), len(got))
			return
		}
		if !reflect.DeepEqual(want[i], got[i]) {
			fmt.Fprintf(b, "%s[%d]:\n  tree-sitter %+v\n  scanner     %+v\n", kind, i, want[i], got[i])
			return
		}
	}
}
