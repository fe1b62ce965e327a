package index

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"

	"github.com/parleyhq/parley/index/graph"
)

// Graph builds the import graph of the whole store. Resolution needs every
// file's imports at once (an import can only be resolved when its target is
// known), so it is computed on demand from the stored details rather than
// maintained incrementally; on GOROOT/src that takes tens of milliseconds.
// root is the workspace root, used to read go.mod, package.json and
// tsconfig.json files, and to find the go.mod and go.work files above it
// (graph.LoadEnv) when the root is part of a larger Go module.
func (s *Store) Graph(root string) (*graph.Graph, error) {
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("graph of %s: %w", root, err)
	}
	s.mu.RLock()
	files := make([]graph.File, 0, len(s.byID))
	langs := make(map[uint32]string, len(s.byID))
	for id, h := range s.byID {
		langs[id] = h.Lang
	}
	s.mu.RUnlock()
	err = s.scan([]byte{prefixDetail}, func(k, v []byte) error {
		if len(k) != 5 {
			return nil
		}
		d, err := decodeDetail(v)
		if err != nil {
			return err
		}
		id := binary.BigEndian.Uint32(k[1:])
		lang, ok := langs[id]
		if !ok {
			return nil // committed after our header snapshot, or stale
		}
		files = append(files, graph.File{Path: d.Path, Lang: lang, Package: d.Package, Imports: d.Imports})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load imports: %w", err)
	}
	read := func(rel string) ([]byte, error) {
		return os.ReadFile(filepath.Join(absRoot, filepath.FromSlash(rel)))
	}
	return graph.Build(files, read, graph.LoadEnv(absRoot)), nil
}
