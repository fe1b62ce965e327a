package memory

import (
	"encoding/json"
	"slices"
)

// The operations below are the ones every front end offers on a Set (the
// CLI, the REPL's /memory and the language server's parley/memory*
// methods), kept here so they select, edit and count memories the same
// way everywhere.

// Filter selects memories for Select. Zero fields select everything.
type Filter struct {
	// Types keeps memories of any of these types.
	Types []Type `json:"types,omitempty"`
	// Scope keeps one store's memories ("": both).
	Scope Scope `json:"scope,omitempty"`
	// Tags keeps memories carrying every one of these tags.
	Tags []string `json:"tags,omitempty"`
	// Stale keeps only memories whose anchors changed since written.
	Stale bool `json:"stale,omitempty"`
}

// Select returns the memories f selects, workspace first, then user, each
// oldest first, with why each is stale (if it is).
func (s *Set) Select(f Filter) ([]Hit, error) {
	if f.Scope != "" && f.Scope != Workspace && f.Scope != User {
		return nil, invalidf("unknown scope %q (workspace or user)", f.Scope)
	}
	var out []Hit
	for _, st := range s.stores() {
		if f.Scope != "" && st.scope != f.Scope {
			continue
		}
		list, err := st.List(f.Types...)
		if err != nil {
			return nil, err
		}
		for _, m := range list {
			if !hasTags(m, f.Tags) {
				continue
			}
			h := Hit{Memory: m, Stale: s.Stale(m)}
			if f.Stale && len(h.Stale) == 0 {
				continue
			}
			out = append(out, h)
		}
	}
	return out, nil
}

func hasTags(m Memory, tags []string) bool {
	for _, t := range tags {
		if !slices.Contains(m.Tags, t) {
			return false
		}
	}
	return true
}

// Show returns the memory named by ref with why it is stale (if it is).
func (s *Set) Show(ref string) (Hit, error) {
	m, err := s.Get(ref)
	if err != nil {
		return Hit{}, err
	}
	return Hit{Memory: m, Stale: s.Stale(m)}, nil
}

// Edit is a change to a memory; nil fields keep what the memory has.
type Edit struct {
	Content    *string   `json:"content,omitempty"`
	Type       *Type     `json:"type,omitempty"`
	Importance *int      `json:"importance,omitempty"`
	Tags       *[]string `json:"tags,omitempty"`
}

// Edit applies e to the memory named by ref (see Update: its anchors are
// re-hashed, so an edited memory is no longer stale).
func (s *Set) Edit(ref string, e Edit) (Memory, error) {
	m, err := s.Get(ref)
	if err != nil {
		return Memory{}, err
	}
	if e.Content != nil {
		m.Content = *e.Content
	}
	if e.Type != nil {
		if m.Type, err = ParseType(string(*e.Type)); err != nil {
			return Memory{}, err
		}
	}
	if e.Importance != nil {
		if *e.Importance == 0 {
			return Memory{}, invalidf("importance 0 is outside 1-10")
		}
		m.Importance = *e.Importance
	}
	if e.Tags != nil {
		m.Tags = *e.Tags
	}
	return s.Update(ref, m)
}

// StoreStats describes one scope's store.
type StoreStats struct {
	Scope Scope `json:"scope"`
	// Available is false when the session has no store of this scope
	// (then the other fields are zero).
	Available bool         `json:"available"`
	Dir       string       `json:"dir,omitempty"`
	Count     int          `json:"count"`
	Types     map[Type]int `json:"types"`
	Stale     int          `json:"stale"`
}

// Stats counts each scope's memories by type, and the stale ones.
func (s *Set) Stats() ([]StoreStats, error) {
	out := []StoreStats{{Scope: Workspace, Types: map[Type]int{}}, {Scope: User, Types: map[Type]int{}}}
	for i, st := range []*Store{s.Workspace, s.User} {
		if st == nil {
			continue
		}
		list, err := st.List()
		if err != nil {
			return nil, err
		}
		ss := &out[i]
		ss.Available, ss.Dir, ss.Count = true, st.Dir(), len(list)
		for _, m := range list {
			ss.Types[m.Type]++
			if len(s.Stale(m)) > 0 {
				ss.Stale++
			}
		}
	}
	return out, nil
}

// MarshalJSON adds the memory's reference ("12", "u12") to what a Hit
// holds, so clients name memories the way users and the model do.
func (h Hit) MarshalJSON() ([]byte, error) {
	type plain Hit
	return json.Marshal(struct {
		Ref string `json:"ref"`
		plain
	}{Ref(h.Memory), plain(h)})
}
