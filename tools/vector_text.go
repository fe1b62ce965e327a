package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/memory/docs"
	"github.com/parleyhq/parley/memory/embed"
	"github.com/parleyhq/parley/memory/vector"
)

var (
	//go:embed desc/vector_db_search.md
	vdbSearchDesc string
	//go:embed desc/vector_db_add_text.md
	vdbAddTextDesc string
	//go:embed desc/vector_db_add_chunked_text.md
	vdbAddChunkedDesc string
	//go:embed desc/vector_db_add_pdf_document.md
	vdbAddPDFDesc string
)

// embedder is the session's embedder (nil: none configured).
func embedder(env *Env) embed.Embedder {
	if env.Memory == nil {
		return nil
	}
	return env.Memory.Embedder
}

type vdbSearchParams struct {
	IndexName   string    `json:"index_name" jsonschema:"description=The index."`
	Query       string    `json:"query,omitempty" jsonschema:"description=Text to search for (hybrid: words and meaning)."`
	QueryVector []float64 `json:"query_vector,omitempty" jsonschema:"description=Or a vector to search near (of the index's dimension)."`
	K           int       `json:"k,omitempty" jsonschema:"minimum=1,maximum=50,description=How many results (default 5)."`
}

var vdbSearchTool = New(Spec{Name: "vector_db_search", Description: vdbSearchDesc, ReadOnly: true},
	func(env *Env, p *vdbSearchParams) (access.Access, error) {
		if (strings.TrimSpace(p.Query) == "") == (len(p.QueryVector) == 0) {
			return access.Access{}, inputErrorf("give either query or query_vector")
		}
		if p.K == 0 {
			p.K = 5
		}
		return readAccess("search vector index " + p.IndexName), indexName(p.IndexName)
	},
	func(ctx context.Context, env *Env, p *vdbSearchParams) (*Result, error) {
		return withVectors(env, func(vdb *vector.DB) (*Result, error) {
			var b strings.Builder
			var res []vector.Result
			var err error
			if len(p.QueryVector) > 0 {
				res, err = vdb.Search(p.IndexName, float32s(p.QueryVector), p.K)
			} else {
				var lexical bool
				res, lexical, err = docs.Search(ctx, vdb, embedder(env), p.IndexName, p.Query, p.K)
				if lexical && err == nil {
					b.WriteString("(Lexical search only: no embeddings endpoint is configured for this index's model; matches share words with the query.)\n")
				}
			}
			if err != nil {
				return nil, err
			}
			if len(res) == 0 {
				b.WriteString("No match.")
				return &Result{Content: b.String()}, nil
			}
			for _, r := range res {
				fmt.Fprintf(&b, "[%d] score %.4f%s\n", r.ID, r.Score, formatMeta(r.Metadata))
				if r.Text != "" {
					b.WriteString(clipText(r.Text, 1500) + "\n")
				}
			}
			return &Result{Content: b.String()}, nil
		})
	})

// ingest embeds and stores pieces, reporting the model's mistakes and a
// missing embedder as results.
func ingest(ctx context.Context, env *Env, index string, pieces []docs.Piece, what string) (*Result, error) {
	if len(pieces) == 0 {
		return Errorf("%s has no text to add", what), nil
	}
	return withVectors(env, func(vdb *vector.DB) (*Result, error) {
		ids, err := docs.Ingest(ctx, vdb, embedder(env), index, pieces)
		if errors.Is(err, docs.ErrNoEmbedder) {
			return Errorf("adding text needs embeddings: %v", err), nil
		}
		if err != nil && len(ids) == 0 {
			return nil, err
		}
		msg := fmt.Sprintf("Added %s to %s as %d vector(s), ids %d-%d.", what, index, len(ids), ids[0], ids[len(ids)-1])
		if err != nil {
			return Errorf("%s Then it failed: %v", msg, err), nil
		}
		return &Result{Content: msg}, nil
	})
}

type vdbAddTextParams struct {
	IndexName string      `json:"index_name" jsonschema:"description=The index (created when missing)."`
	Text      string      `json:"text" jsonschema:"description=The text, embedded as one vector."`
	Metadata  []metaParam `json:"metadata,omitempty" jsonschema:"description=Metadata to keep with it."`
}

var vdbAddTextTool = New(Spec{Name: "vector_db_add_text", Description: vdbAddTextDesc},
	func(env *Env, p *vdbAddTextParams) (access.Access, error) {
		if strings.TrimSpace(p.Text) == "" {
			return access.Access{}, inputErrorf("text is empty")
		}
		if len(p.Text) > vector.MaxText {
			return access.Access{}, inputErrorf("text of %d bytes; use vector_db_add_chunked_text for long texts", len(p.Text))
		}
		return readAccess("add text to " + p.IndexName), indexName(p.IndexName)
	},
	func(ctx context.Context, env *Env, p *vdbAddTextParams) (*Result, error) {
		return ingest(ctx, env, p.IndexName, []docs.Piece{{Text: p.Text, Metadata: metaMap(p.Metadata)}}, "the text")
	})

type vdbAddChunkedParams struct {
	IndexName string      `json:"index_name" jsonschema:"description=The index (created when missing)."`
	Text      string      `json:"text" jsonschema:"description=The text, split into chunks."`
	Source    string      `json:"source,omitempty" jsonschema:"description=Where it comes from (kept as metadata)."`
	ChunkSize int         `json:"chunk_size,omitempty" jsonschema:"minimum=50,maximum=100000,description=Chunk size in bytes (default 1000)."`
	Overlap   *int        `json:"overlap,omitempty" jsonschema:"minimum=0,maximum=50000,description=Bytes repeated between chunks (default 200; at most half a chunk)."`
	Metadata  []metaParam `json:"metadata,omitempty" jsonschema:"description=Metadata to keep with every chunk."`
}

// overlapArg maps the tools' overlap (absent: the default; 0: none) to
// docs.Chunk's (0: the default; negative: none).
func overlapArg(n *int) int {
	switch {
	case n == nil:
		return 0
	case *n == 0:
		return -1
	}
	return *n
}

var vdbAddChunkedTool = New(Spec{Name: "vector_db_add_chunked_text", Description: vdbAddChunkedDesc},
	func(env *Env, p *vdbAddChunkedParams) (access.Access, error) {
		if strings.TrimSpace(p.Text) == "" {
			return access.Access{}, inputErrorf("text is empty")
		}
		return readAccess("add chunked text to " + p.IndexName), indexName(p.IndexName)
	},
	func(ctx context.Context, env *Env, p *vdbAddChunkedParams) (*Result, error) {
		pieces := docs.TextPieces(p.Text, p.Source, p.ChunkSize, overlapArg(p.Overlap), metaMap(p.Metadata))
		return ingest(ctx, env, p.IndexName, pieces, "the text")
	})

type vdbAddPDFParams struct {
	IndexName string      `json:"index_name" jsonschema:"description=The index (created when missing)."`
	Path      string      `json:"path" jsonschema:"description=The PDF file in the workspace."`
	ChunkSize int         `json:"chunk_size,omitempty" jsonschema:"minimum=50,maximum=100000,description=Chunk size in bytes (default 1000)."`
	Overlap   *int        `json:"overlap,omitempty" jsonschema:"minimum=0,maximum=50000,description=Bytes repeated between chunks (default 200; at most half a chunk)."`
	Metadata  []metaParam `json:"metadata,omitempty" jsonschema:"description=Metadata to keep with every chunk."`

	abs, rel string
}

var vdbAddPDFTool = New(Spec{Name: "vector_db_add_pdf_document", Description: vdbAddPDFDesc},
	func(env *Env, p *vdbAddPDFParams) (access.Access, error) {
		if err := indexName(p.IndexName); err != nil {
			return access.Access{}, err
		}
		abs, rel, err := env.Resolve(p.Path)
		if err != nil {
			return access.Access{}, inputErrorf("%v", err)
		}
		p.abs, p.rel = abs, rel
		return access.Access{Kind: access.Read, Paths: []string{rel}, Summary: fmt.Sprintf("add PDF %s to %s", rel, p.IndexName)}, nil
	},
	func(ctx context.Context, env *Env, p *vdbAddPDFParams) (*Result, error) {
		if env.Files == nil {
			return Errorf("file access is unavailable in this session"), nil
		}
		data, _, err := env.Files.Read(p.abs)
		if res := readFailure(p.rel, err); res != nil {
			return res, nil
		}
		pages, err := docs.ExtractPDF(data)
		if err != nil {
			return Errorf("%s: %v", p.rel, err), nil
		}
		pieces := docs.PDFPieces(pages, p.rel, p.ChunkSize, overlapArg(p.Overlap), metaMap(p.Metadata))
		return ingest(ctx, env, p.IndexName, pieces, fmt.Sprintf("%s (%d pages with text)", p.rel, len(pages)))
	})
