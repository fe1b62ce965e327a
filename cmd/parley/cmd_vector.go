package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/memory"
	"github.com/parleyhq/parley/memory/docs"
	"github.com/parleyhq/parley/memory/vector"
)

// parley vector: the vector_db_* tools' indices from the command line,
// in the workspace's memory store.
func newVectorCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "vector",
		Short: "Manage the workspace's vector indices: list, create, delete, add documents, search, get, remove",
	}
	cmd.AddCommand(newVectorListCmd(g), newVectorCreateCmd(g), newVectorDeleteCmd(g), newVectorAddCmd(g),
		newVectorSearchCmd(g), newVectorGetCmd(g), newVectorRemoveCmd(g))
	return cmd
}

// withVectors runs f with the workspace's vector store and the memory set
// (for its embedder).
func withVectors(g *globals, f func(*vector.DB, *memory.Set) error) error {
	return withMemory(g, func(set *memory.Set) error {
		vdb, err := set.Workspace.Vectors()
		if err != nil {
			return err
		}
		return f(vdb, set)
	})
}

// userIndex refuses parley's own indices.
func userIndex(name string) error {
	if memory.ReservedIndex(name) {
		return fmt.Errorf("index %q: names starting with _ are parley's own", name)
	}
	return nil
}

func newVectorListCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the vector indices",
		Args:  cobra.NoArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			return withVectors(g, func(vdb *vector.DB, _ *memory.Set) error {
				list, err := vdb.List()
				if err != nil {
					return err
				}
				var out []vector.Info
				for _, info := range list {
					if !memory.ReservedIndex(info.Name) {
						out = append(out, info)
					}
				}
				if g.json {
					return writeJSON(g.stdout, orEmpty(out))
				}
				if len(out) == 0 {
					fmt.Fprintln(g.stdout, "no vector index")
				}
				for _, info := range out {
					fmt.Fprintf(g.stdout, "%s\t%d vectors\t%d dimensions\t%s\n", info.Name, info.Count, info.Dim, info.Model)
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&g.json, "json", false, "print JSON")
	return cmd
}

func newVectorCreateCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "create INDEX DIMENSION",
		Short: "Create an empty index of vectors of DIMENSION (adding documents creates one on its own)",
		Args:  cobra.ExactArgs(2),
		RunE: func(_ *cobra.Command, args []string) error {
			dim, err := strconv.Atoi(args[1])
			if err != nil {
				return fmt.Errorf("dimension %q: %w", args[1], err)
			}
			if err := userIndex(args[0]); err != nil {
				return err
			}
			return withVectors(g, func(vdb *vector.DB, _ *memory.Set) error {
				if _, err := vdb.Create(args[0], dim); err != nil {
					return err
				}
				fmt.Fprintf(g.stdout, "created %s\n", args[0])
				return nil
			})
		},
	}
}

func newVectorDeleteCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "delete INDEX",
		Short: "Delete an index and everything in it",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if err := userIndex(args[0]); err != nil {
				return err
			}
			return withVectors(g, func(vdb *vector.DB, _ *memory.Set) error {
				if err := vdb.Delete(args[0]); err != nil {
					return err
				}
				fmt.Fprintf(g.stdout, "deleted %s\n", args[0])
				return nil
			})
		},
	}
}

func newVectorAddCmd(g *globals) *cobra.Command {
	var text string
	var size, overlap int
	cmd := &cobra.Command{
		Use:   "add INDEX [FILE...]",
		Short: "Chunk, embed and add documents (PDF by their .pdf extension, else text) or --text to an index",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if err := userIndex(args[0]); err != nil {
				return err
			}
			if !c.Flags().Changed("overlap") {
				overlap = 0 // docs.Chunk's default
			} else if overlap == 0 {
				overlap = -1 // none
			}
			var pieces []docs.Piece
			if text != "" {
				pieces = docs.TextPieces(text, "", size, overlap, nil)
			}
			for _, path := range args[1:] {
				ps, err := filePieces(path, size, overlap)
				if err != nil {
					return err
				}
				pieces = append(pieces, ps...)
			}
			if len(pieces) == 0 {
				return fmt.Errorf("nothing to add: give files with text or --text")
			}
			return withVectors(g, func(vdb *vector.DB, set *memory.Set) error {
				ctx, stop := signalContext()
				defer stop()
				ids, err := docs.Ingest(ctx, vdb, set.Embedder, args[0], pieces)
				if len(ids) > 0 {
					fmt.Fprintf(g.stdout, "added %d chunks to %s (ids %d-%d)\n", len(ids), args[0], ids[0], ids[len(ids)-1])
				}
				return err
			})
		},
	}
	cmd.Flags().StringVar(&text, "text", "", "a text to add")
	cmd.Flags().IntVar(&size, "chunk-size", docs.DefaultChunkSize, "chunk size in bytes")
	cmd.Flags().IntVar(&overlap, "overlap", docs.DefaultChunkOverlap, "bytes repeated between chunks")
	return cmd
}

// filePieces reads a document and chunks it; a PDF's chunks name their
// page.
func filePieces(path string, size, overlap int) ([]docs.Piece, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	source := filepath.ToSlash(path)
	if strings.EqualFold(filepath.Ext(path), ".pdf") {
		pages, err := docs.ExtractPDF(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return docs.PDFPieces(pages, source, size, overlap, nil), nil
	}
	return docs.TextPieces(string(data), source, size, overlap, nil), nil
}

func newVectorSearchCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "search INDEX QUERY",
		Short: "Search an index's texts, best first (words and, with an embeddings endpoint, meaning)",
		Args:  cobra.ExactArgs(2),
		RunE: func(_ *cobra.Command, args []string) error {
			return withVectors(g, func(vdb *vector.DB, set *memory.Set) error {
				ctx, stop := signalContext()
				defer stop()
				res, lexical, err := docs.Search(ctx, vdb, set.Embedder, args[0], args[1], g.limit)
				if err != nil {
					return err
				}
				if lexical {
					fmt.Fprintln(g.stderr, "parley: lexical search only (no embeddings endpoint for this index's model)")
				}
				if g.json {
					return writeJSON(g.stdout, orEmpty(res))
				}
				if len(res) == 0 {
					fmt.Fprintln(g.stdout, "no match")
				}
				for _, r := range res {
					fmt.Fprintf(g.stdout, "[%d] %.4f %s\n  %s\n", r.ID, r.Score, metaLine(r.Metadata), clip(strings.Join(strings.Fields(r.Text), " "), 200))
				}
				return nil
			})
		},
	}
	// 10, like every other command: the flag variables are shared, and
	// cobra writes each default when the flag is defined.
	addQueryFlags(cmd, g, 10)
	return cmd
}

func metaLine(m map[string]any) string {
	var parts []string
	for _, k := range []string{"source", "page", "chunk"} {
		if v, ok := m[k]; ok {
			parts = append(parts, fmt.Sprintf("%s=%v", k, v))
		}
	}
	return strings.Join(parts, " ")
}

func newVectorGetCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "get INDEX ID",
		Short: "Show a stored vector's text and metadata",
		Args:  cobra.ExactArgs(2),
		RunE: func(_ *cobra.Command, args []string) error {
			id, err := strconv.ParseUint(args[1], 10, 64)
			if err != nil {
				return fmt.Errorf("id %q: %w", args[1], err)
			}
			return withVectors(g, func(vdb *vector.DB, _ *memory.Set) error {
				it, err := vdb.Get(args[0], id)
				if err != nil {
					return err
				}
				if !g.json {
					it.Vector = nil
				}
				return writeJSON(g.stdout, it)
			})
		},
	}
	cmd.Flags().BoolVar(&g.json, "json", false, "include the vector")
	return cmd
}

func newVectorRemoveCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "remove INDEX ID...",
		Short: "Remove vectors by id",
		Args:  cobra.MinimumNArgs(2),
		RunE: func(_ *cobra.Command, args []string) error {
			if err := userIndex(args[0]); err != nil {
				return err
			}
			var ids []uint64
			for _, a := range args[1:] {
				id, err := strconv.ParseUint(a, 10, 64)
				if err != nil {
					return fmt.Errorf("id %q: %w", a, err)
				}
				ids = append(ids, id)
			}
			return withVectors(g, func(vdb *vector.DB, _ *memory.Set) error {
				n, err := vdb.Remove(args[0], ids)
				if err != nil {
					return err
				}
				fmt.Fprintf(g.stdout, "removed %d\n", n)
				return nil
			})
		},
	}
}
