package lsp

import (
	"encoding/json"
	"errors"
	"strings"

	"go.lsp.dev/jsonrpc2"

	"github.com/parleyhq/parley/memory"
)

// The parley/memory* methods (documented in docs/protocol.md): the
// operations of `parley memory` and `/memory` for the editors, on the
// same memory.Set the editor's agent uses. They need no model.
const (
	methodMemoryList   = "parley/memoryList"
	methodMemorySearch = "parley/memorySearch"
	methodMemoryShow   = "parley/memoryShow"
	methodMemoryAdd    = "parley/memoryAdd"
	methodMemoryEdit   = "parley/memoryEdit"
	methodMemoryForget = "parley/memoryForget"
	methodMemoryStats  = "parley/memoryStats"
)

// MemorySearchParams are parley/memorySearch's params.
type MemorySearchParams struct {
	Query string        `json:"query"`
	K     int           `json:"k,omitempty"` // default 10
	Types []memory.Type `json:"types,omitempty"`
}

// MemoryRefParams are parley/memoryShow's and parley/memoryForget's.
type MemoryRefParams struct {
	ID string `json:"id"` // "12", or "u12" for a user memory
}

// MemoryEditParams are parley/memoryEdit's: the fields to change.
type MemoryEditParams struct {
	ID string `json:"id"`
	memory.Edit
}

// MemoryAddParams are parley/memoryAdd's.
type MemoryAddParams struct {
	Content    string          `json:"content"`
	Type       memory.Type     `json:"type,omitempty"`
	Importance int             `json:"importance,omitempty"`
	Tags       []string        `json:"tags,omitempty"`
	Scope      memory.Scope    `json:"scope,omitempty"`
	Anchors    []memory.Anchor `json:"anchors,omitempty"`
}

// MemoryListResult is what list and search answer.
type MemoryListResult struct {
	Memories []memory.Hit `json:"memories"`
}

// MemoryResult is what show, add, edit and forget answer.
type MemoryResult struct {
	Memory memory.Hit `json:"memory"`
}

// MemoryStatsResult is parley/memoryStats' result.
type MemoryStatsResult struct {
	Stores []memory.StoreStats `json:"stores"`
}

func isMemoryMethod(method string) bool { return strings.HasPrefix(method, "parley/memory") }

// memoryRequest answers the parley/memory* methods.
func (s *Server) memoryRequest(method string, raw json.RawMessage) (any, error) {
	set := s.agents.memorySet()
	if set.Workspace == nil && set.User == nil {
		return nil, requestFailed("long-term memory is unavailable (see the server log)")
	}
	var res any
	var err error
	switch method {
	case methodMemoryList:
		var f memory.Filter
		if err = decodeMemoryParams(method, raw, &f, true); err == nil {
			var list []memory.Hit
			list, err = set.Select(f)
			res = MemoryListResult{Memories: orEmptyHits(list)}
		}
	case methodMemorySearch:
		var p MemorySearchParams
		if err = decodeMemoryParams(method, raw, &p, false); err == nil {
			res, err = memorySearch(set, p)
		}
	case methodMemoryShow, methodMemoryForget:
		var p MemoryRefParams
		if err = decodeMemoryParams(method, raw, &p, false); err == nil {
			var h memory.Hit
			if method == methodMemoryShow {
				h, err = set.Show(p.ID)
			} else {
				h.Memory, err = set.Forget(p.ID)
			}
			res = MemoryResult{Memory: h}
		}
	case methodMemoryAdd:
		var p MemoryAddParams
		if err = decodeMemoryParams(method, raw, &p, false); err == nil {
			var m memory.Memory
			m, err = set.Add(memory.Memory{Content: p.Content, Type: p.Type, Importance: p.Importance,
				Tags: p.Tags, Scope: p.Scope, Anchors: p.Anchors})
			res = MemoryResult{Memory: memory.Hit{Memory: m}}
		}
	case methodMemoryEdit:
		var p MemoryEditParams
		if err = decodeMemoryParams(method, raw, &p, false); err == nil {
			var m memory.Memory
			if m, err = set.Edit(p.ID, p.Edit); err == nil {
				res = MemoryResult{Memory: memory.Hit{Memory: m, Stale: set.Stale(m)}}
			}
		}
	case methodMemoryStats:
		var stores []memory.StoreStats
		stores, err = set.Stats()
		res = MemoryStatsResult{Stores: stores}
	default:
		return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %s", method)
	}
	if err != nil {
		return nil, memoryError(method, err)
	}
	return res, nil
}

func memorySearch(set *memory.Set, p MemorySearchParams) (MemoryListResult, error) {
	if strings.TrimSpace(p.Query) == "" {
		return MemoryListResult{}, invalidParams("%s: query is empty", methodMemorySearch)
	}
	if p.K <= 0 {
		p.K = 10
	}
	for _, t := range p.Types {
		if _, err := memory.ParseType(string(t)); err != nil {
			return MemoryListResult{}, err
		}
	}
	hits, err := set.Recall(p.Query, p.K, p.Types...)
	return MemoryListResult{Memories: orEmptyHits(hits)}, err
}

// decodeMemoryParams decodes raw into p; optional says absent params are
// allowed (they select everything).
func decodeMemoryParams[T any](method string, raw json.RawMessage, p *T, optional bool) error {
	if string(raw) == "null" && optional {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(string(luaObjectsFor[T](raw))))
	dec.DisallowUnknownFields()
	if err := dec.Decode(p); err != nil {
		return invalidParams("%s: invalid params: %v", method, err)
	}
	return nil
}

// memoryError gives the memory's errors their codes: a caller's mistake
// (a malformed memory or id, an unknown one) is InvalidParams, the rest
// (the store failing) InternalError through wireError.
func memoryError(method string, err error) error {
	if errors.Is(err, memory.ErrInvalid) || errors.Is(err, memory.ErrNotFound) {
		return invalidParams("%s: %v", method, err)
	}
	return err
}

func orEmptyHits(h []memory.Hit) []memory.Hit {
	if h == nil {
		return []memory.Hit{}
	}
	return h
}
