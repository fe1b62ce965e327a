package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/memory"
	"github.com/parleyhq/parley/memory/docs"
	"github.com/parleyhq/parley/memory/vector"
)

// The vector_db_* tools: named vector indices in the workspace's memory
// store (memory/vector), with the original assistant's capabilities. Like
// the memory tools they write the agent's own store, not the workspace,
// so they are Read for the permission policy; those that change an index
// are not ReadOnly (plan mode refuses them). vector_db_add_pdf_document
// reads a workspace file, so its path is checked and judged like
// read_file's.

var (
	//go:embed desc/vector_db_create_index.md
	vdbCreateDesc string
	//go:embed desc/vector_db_delete_index.md
	vdbDeleteIndexDesc string
	//go:embed desc/vector_db_list_indices.md
	vdbListDesc string
	//go:embed desc/vector_db_add_vector.md
	vdbAddVectorDesc string
	//go:embed desc/vector_db_update_vector.md
	vdbUpdateDesc string
	//go:embed desc/vector_db_delete_vector.md
	vdbDeleteVectorDesc string
	//go:embed desc/vector_db_get_vector.md
	vdbGetDesc string
)

// VectorTools are the vector_db_* tools; they need Env.Memory's workspace
// store (and its Embedder for text).
func VectorTools() []Tool {
	return []Tool{
		vdbCreateTool, vdbDeleteIndexTool, vdbListTool, vdbAddVectorTool, vdbUpdateTool, vdbDeleteVectorTool,
		vdbGetTool, vdbSearchTool, vdbAddTextTool, vdbAddChunkedTool, vdbAddPDFTool,
	}
}

type metaParam struct {
	Key   string `json:"key" jsonschema:"description=Metadata field name."`
	Value string `json:"value" jsonschema:"description=Its value."`
}

func metaMap(ps []metaParam) map[string]any {
	if len(ps) == 0 {
		return nil
	}
	m := make(map[string]any, len(ps))
	for _, p := range ps {
		m[p.Key] = p.Value
	}
	return m
}

// indexName checks a model-given index name: a valid name that is not
// one of parley's own (memory's embeddings).
func indexName(name string) error {
	if memory.ReservedIndex(name) {
		return inputErrorf("index names starting with _ are parley's own")
	}
	if strings.TrimSpace(name) == "" {
		return inputErrorf("index_name is empty")
	}
	return nil
}

// vectorDB is the session's vector store, or a result saying why there
// is none.
func vectorDB(env *Env) (*vector.DB, *Result, error) {
	if env.Memory == nil || env.Memory.Workspace == nil {
		return nil, Errorf("the vector store is unavailable in this session (it lives beside the workspace's memories, which could not be opened)"), nil
	}
	vdb, err := env.Memory.Workspace.Vectors()
	if errors.Is(err, memory.ErrLocked) {
		// Another parley process owns the indices: the model can say so
		// and go on without them.
		return nil, Errorf("%v; tell the user, or try again once that process ends", err), nil
	}
	if err != nil {
		return nil, nil, err
	}
	return vdb, nil, nil
}

// vectorResult turns a vector store error into the model's result: a
// mistake (bad name, dimension, unknown id) is an error result, a storage
// failure a Go error.
func vectorResult(err error) (*Result, error) {
	if errors.Is(err, vector.ErrInvalid) || errors.Is(err, vector.ErrNotFound) {
		return Errorf("%v", err), nil
	}
	return nil, err
}

// withVectors runs f with the store, mapping its errors.
func withVectors(env *Env, f func(*vector.DB) (*Result, error)) (*Result, error) {
	vdb, res, err := vectorDB(env)
	if res != nil || err != nil {
		return res, err
	}
	res, err = f(vdb)
	if err != nil {
		return vectorResult(err)
	}
	return res, nil
}

func readAccess(summary string) access.Access {
	return access.Access{Kind: access.Read, Summary: summary}
}

type vdbCreateParams struct {
	IndexName string `json:"index_name" jsonschema:"description=Name: 1-64 of a-z 0-9 _ - ."`
	Dimension int    `json:"dimension" jsonschema:"minimum=1,maximum=8192,description=Dimension of its vectors."`
}

var vdbCreateTool = New(Spec{Name: "vector_db_create_index", Description: vdbCreateDesc},
	func(env *Env, p *vdbCreateParams) (access.Access, error) {
		return readAccess("create vector index " + p.IndexName), indexName(p.IndexName)
	},
	func(ctx context.Context, env *Env, p *vdbCreateParams) (*Result, error) {
		return withVectors(env, func(vdb *vector.DB) (*Result, error) {
			if _, err := vdb.Create(p.IndexName, p.Dimension); err != nil {
				return nil, err
			}
			return &Result{Content: fmt.Sprintf("Created index %s (%d dimensions, cosine).", p.IndexName, p.Dimension)}, nil
		})
	})

type vdbIndexParams struct {
	IndexName string `json:"index_name" jsonschema:"description=The index."`
}

var vdbDeleteIndexTool = New(Spec{Name: "vector_db_delete_index", Description: vdbDeleteIndexDesc},
	func(env *Env, p *vdbIndexParams) (access.Access, error) {
		return readAccess("delete vector index " + p.IndexName), indexName(p.IndexName)
	},
	func(ctx context.Context, env *Env, p *vdbIndexParams) (*Result, error) {
		return withVectors(env, func(vdb *vector.DB) (*Result, error) {
			if err := vdb.Delete(p.IndexName); err != nil {
				return nil, err
			}
			return &Result{Content: "Deleted index " + p.IndexName + "."}, nil
		})
	})

type vdbListParams struct{}

var vdbListTool = New(Spec{Name: "vector_db_list_indices", Description: vdbListDesc, ReadOnly: true},
	func(env *Env, p *vdbListParams) (access.Access, error) { return readAccess("list vector indices"), nil },
	func(ctx context.Context, env *Env, p *vdbListParams) (*Result, error) {
		return withVectors(env, func(vdb *vector.DB) (*Result, error) {
			list, err := vdb.List()
			if err != nil {
				return nil, err
			}
			var b strings.Builder
			for _, info := range list {
				if memory.ReservedIndex(info.Name) {
					continue
				}
				fmt.Fprintf(&b, "%s: %d vectors of %d dimensions", info.Name, info.Count, info.Dim)
				if info.Model != "" {
					fmt.Fprintf(&b, ", embedded by %s", info.Model)
				}
				b.WriteString("\n")
			}
			if b.Len() == 0 {
				return &Result{Content: "No vector index."}, nil
			}
			return &Result{Content: b.String()}, nil
		})
	})

type vdbAddVectorParams struct {
	IndexName string      `json:"index_name" jsonschema:"description=The index."`
	Vector    []float64   `json:"vector" jsonschema:"description=The vector (of the index's dimension)."`
	ID        uint64      `json:"id,omitempty" jsonschema:"minimum=1,description=Its id (default: the next free one)."`
	Text      string      `json:"text,omitempty" jsonschema:"description=Text to keep with it."`
	Metadata  []metaParam `json:"metadata,omitempty" jsonschema:"description=Metadata to keep with it."`
}

func float32s(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}

var vdbAddVectorTool = New(Spec{Name: "vector_db_add_vector", Description: vdbAddVectorDesc},
	func(env *Env, p *vdbAddVectorParams) (access.Access, error) {
		return readAccess("add a vector to " + p.IndexName), indexName(p.IndexName)
	},
	func(ctx context.Context, env *Env, p *vdbAddVectorParams) (*Result, error) {
		return withVectors(env, func(vdb *vector.DB) (*Result, error) {
			ids, err := vdb.Add(p.IndexName, []vector.Item{{ID: p.ID, Vector: float32s(p.Vector), Text: p.Text, Metadata: metaMap(p.Metadata)}}, "")
			if err != nil {
				return nil, err
			}
			return &Result{Content: fmt.Sprintf("Added vector %d to %s.", ids[0], p.IndexName)}, nil
		})
	})

type vdbUpdateParams struct {
	IndexName string      `json:"index_name" jsonschema:"description=The index."`
	ID        uint64      `json:"id" jsonschema:"minimum=1,description=The vector's id."`
	Vector    []float64   `json:"vector,omitempty" jsonschema:"description=The new vector (default: keep it)."`
	Text      string      `json:"text,omitempty" jsonschema:"description=The new text (replaces the old)."`
	Metadata  []metaParam `json:"metadata,omitempty" jsonschema:"description=The new metadata (replaces the old)."`
}

var vdbUpdateTool = New(Spec{Name: "vector_db_update_vector", Description: vdbUpdateDesc},
	func(env *Env, p *vdbUpdateParams) (access.Access, error) {
		return readAccess(fmt.Sprintf("update vector %d of %s", p.ID, p.IndexName)), indexName(p.IndexName)
	},
	func(ctx context.Context, env *Env, p *vdbUpdateParams) (*Result, error) {
		return withVectors(env, func(vdb *vector.DB) (*Result, error) {
			it := vector.Item{ID: p.ID, Text: p.Text, Metadata: metaMap(p.Metadata)}
			if p.Vector != nil {
				it.Vector = float32s(p.Vector)
			}
			if err := docs.Update(vdb, p.IndexName, []vector.Item{it}); err != nil {
				return nil, err
			}
			return &Result{Content: fmt.Sprintf("Updated vector %d of %s.", p.ID, p.IndexName)}, nil
		})
	})

type vdbIDParams struct {
	IndexName string `json:"index_name" jsonschema:"description=The index."`
	ID        uint64 `json:"id" jsonschema:"minimum=1,description=The vector's id."`
}

var vdbDeleteVectorTool = New(Spec{Name: "vector_db_delete_vector", Description: vdbDeleteVectorDesc},
	func(env *Env, p *vdbIDParams) (access.Access, error) {
		return readAccess(fmt.Sprintf("delete vector %d of %s", p.ID, p.IndexName)), indexName(p.IndexName)
	},
	func(ctx context.Context, env *Env, p *vdbIDParams) (*Result, error) {
		return withVectors(env, func(vdb *vector.DB) (*Result, error) {
			n, err := vdb.Remove(p.IndexName, []uint64{p.ID})
			if err != nil {
				return nil, err
			}
			if n == 0 {
				return Errorf("vector %d is not in index %s", p.ID, p.IndexName), nil
			}
			return &Result{Content: fmt.Sprintf("Deleted vector %d of %s.", p.ID, p.IndexName)}, nil
		})
	})

type vdbGetParams struct {
	IndexName     string `json:"index_name" jsonschema:"description=The index."`
	ID            uint64 `json:"id" jsonschema:"minimum=1,description=The vector's id."`
	IncludeVector bool   `json:"include_vector,omitempty" jsonschema:"description=Also show the vector's components (long)."`
}

var vdbGetTool = New(Spec{Name: "vector_db_get_vector", Description: vdbGetDesc, ReadOnly: true},
	func(env *Env, p *vdbGetParams) (access.Access, error) {
		return readAccess(fmt.Sprintf("get vector %d of %s", p.ID, p.IndexName)), indexName(p.IndexName)
	},
	func(ctx context.Context, env *Env, p *vdbGetParams) (*Result, error) {
		return withVectors(env, func(vdb *vector.DB) (*Result, error) {
			it, err := vdb.Get(p.IndexName, p.ID)
			if err != nil {
				return nil, err
			}
			var b strings.Builder
			fmt.Fprintf(&b, "[%d] %d dimensions%s\n", it.ID, len(it.Vector), formatMeta(it.Metadata))
			if it.Text != "" {
				b.WriteString(it.Text + "\n")
			}
			if p.IncludeVector {
				fmt.Fprintf(&b, "vector: %v\n", it.Vector)
			}
			return &Result{Content: b.String()}, nil
		})
	})

// formatMeta is metadata as " (key=value, ...)", keys sorted.
func formatMeta(m map[string]any) string {
	if len(m) == 0 {
		return ""
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%v", k, m[k])
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
