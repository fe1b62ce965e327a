package repomap

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/tiktoken-go/tokenizer"

	"github.com/parleyhq/parley/index"
)

// BenchmarkMapGOROOT builds the map of GOROOT/src at the default budget
// (1024 tokens) from a warm store (indexed once in setup), focused on a
// different file each time. "warm" reuses the Mapper, as the agent does: a header scan to see
// the index is unchanged, one PageRank for the new focus, the symbols of
// the files shown and token counting; issue 12's target is 100 ms.
// "cold" starts a Mapper each time, adding the graph (imports and the
// references read from every file). `make bench` runs it with the other
// ./index/... benchmarks.
func BenchmarkMapGOROOT(b *testing.B) {
	root := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		b.Skipf("no GOROOT source: %v", err)
	}
	st, err := index.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Index(context.Background(), root, index.Options{}); err != nil {
		b.Fatal(err)
	}
	codec, err := tokenizer.Get(tokenizer.Cl100kBase)
	if err != nil {
		b.Fatal(err)
	}
	files := st.Files()
	run := func(b *testing.B, m func() *Mapper) {
		i := 0
		for b.Loop() {
			focus := []string{files[i%len(files)].Path}
			i++
			if _, err := m().Build(Options{Tokens: 1024, Focus: focus, Count: codec.Count}); err != nil {
				b.Fatal(err)
			}
		}
	}
	warm := New(st, root)
	if _, err := warm.Rank(nil); err != nil { // the graph, built once
		b.Fatal(err)
	}
	b.Run("warm", func(b *testing.B) { run(b, func() *Mapper { return warm }) })
	b.Run("cold", func(b *testing.B) { run(b, func() *Mapper { return New(st, root) }) })
	// "changed": one file re-indexed before each map, as in an editor
	// where the agent or the user changed a file since the last message:
	// a new generation, whose graph reuses the other files' names.
	const edited = "strings/strings.go"
	src, err := os.ReadFile(filepath.Join(root, edited))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("changed", func(b *testing.B) {
		i := 0
		for b.Loop() {
			i++
			next := append(append([]byte{}, src...), fmt.Sprintf("\nvar _ = %d\n", i)...)
			if err := st.PutContent(context.Background(), edited, next, index.Options{}); err != nil {
				b.Fatal(err)
			}
			if _, err := warm.Build(Options{Tokens: 1024, Focus: []string{edited}, Count: codec.Count}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
