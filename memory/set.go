package memory

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/parleyhq/parley/memory/embed"
)

// Set is what a session sees: the workspace's store and the user-level
// one. Either may be nil (then memories of that scope are unavailable).
// A memory's reference names its store: "12" is workspace memory 12,
// "u12" user memory 12.
type Set struct {
	Workspace *Store
	User      *Store
	// Anchors hashes what anchors name (nil: anchors are kept but never
	// judged stale); see stale.go.
	Anchors AnchorHasher
	// Embedder, when set, makes recall hybrid (hybrid.go; UseEmbeddings
	// sets it up from the configuration).
	Embedder embed.Embedder
	// MinSimilarity is auto-recall's cosine threshold for a memory taken by
	// its embedding alone; 0 means AutoRecallMinSimilarity (auto.go).
	MinSimilarity float64

	hy hybrid
}

// Ref is the reference of m for users and the model.
func Ref(m Memory) string {
	if m.Scope == User {
		return "u" + strconv.FormatUint(m.ID, 10)
	}
	return strconv.FormatUint(m.ID, 10)
}

// ParseRef splits a reference into its scope and ID. Its error is the
// caller's mistake.
func ParseRef(ref string) (Scope, uint64, error) {
	ref = strings.TrimSpace(ref)
	scope := Workspace
	if rest, ok := strings.CutPrefix(ref, "u"); ok {
		scope, ref = User, rest
	}
	id, err := strconv.ParseUint(ref, 10, 64)
	if err != nil || id == 0 {
		return "", 0, invalidf("%q is not a memory id (like 12, or u12 for a user memory)", ref)
	}
	return scope, id, nil
}

func (s *Set) store(scope Scope) (*Store, error) {
	st := s.Workspace
	if scope == User {
		st = s.User
	}
	if st == nil {
		return nil, invalidf("%s memories are unavailable in this session", scope)
	}
	return st, nil
}

// Add stores m in the store of its scope (workspace when empty).
func (s *Set) Add(m Memory) (Memory, error) {
	if m.Scope == "" {
		m.Scope = Workspace
	}
	st, err := s.store(m.Scope)
	if err != nil {
		return Memory{}, err
	}
	m.Anchors = slices.Clone(m.Anchors)
	if err := s.hashAnchors(&m); err != nil {
		return Memory{}, err
	}
	m, err = st.Add(m)
	if err == nil {
		s.embedWritten(st, m)
	}
	return m, err
}

// Get returns the memory named by ref.
func (s *Set) Get(ref string) (Memory, error) {
	st, id, _, err := s.byRef(ref)
	if err != nil {
		return Memory{}, err
	}
	return st.Get(id)
}

// Update replaces the memory named by ref with m (its ID and scope come
// from ref). Editing a memory is reviewing it: its anchors are hashed
// again (no longer stale), and anchors whose file or symbol is gone are
// dropped.
func (s *Set) Update(ref string, m Memory) (Memory, error) {
	st, id, scope, err := s.byRef(ref)
	if err != nil {
		return Memory{}, err
	}
	m.ID, m.Scope = id, scope
	if err := s.rehashAnchors(&m); err != nil {
		return Memory{}, err
	}
	m, err = st.Update(m)
	if err == nil {
		s.embedWritten(st, m)
	}
	return m, err
}

// Forget deletes the memory named by ref and returns what it was.
func (s *Set) Forget(ref string) (Memory, error) {
	st, id, _, err := s.byRef(ref)
	if err != nil {
		return Memory{}, err
	}
	m, err := st.Forget(id)
	if err == nil && s.Embedder != nil {
		s.unembed(st, id)
	}
	return m, err
}

// byRef returns the store, ID and scope a reference ("12", "u12") names.
func (s *Set) byRef(ref string) (*Store, uint64, Scope, error) {
	scope, id, err := ParseRef(ref)
	if err != nil {
		return nil, 0, scope, err
	}
	st, err := s.store(scope)
	return st, id, scope, err
}

func (s *Set) stores() []*Store {
	var out []*Store
	for _, st := range []*Store{s.Workspace, s.User} {
		if st != nil {
			out = append(out, st)
		}
	}
	return out
}

// lexicalRecall recalls from both stores by BM25 and merges by score. The
// two stores' BM25 statistics differ, so scores across them are
// comparable only roughly; within each store the order is exact.
func (s *Set) lexicalRecall(query string, k int, types ...Type) ([]Hit, error) {
	var all []Hit
	for _, st := range s.stores() {
		hits, err := st.Recall(query, k, types...)
		if err != nil {
			return nil, err
		}
		all = append(all, hits...)
	}
	sortHits(all)
	all = all[:min(k, len(all))]
	s.markStale(all)
	return all, nil
}

// List lists both stores' memories of the given types, workspace first.
func (s *Set) List(types ...Type) ([]Memory, error) {
	var all []Memory
	for _, st := range s.stores() {
		list, err := st.List(types...)
		if err != nil {
			return nil, err
		}
		all = append(all, list...)
	}
	return all, nil
}

// MarkUsed marks the hits' memories used in their stores.
func (s *Set) MarkUsed(hits []Hit) error {
	var errs []error
	for _, st := range s.stores() {
		var ids []uint64
		for _, h := range hits {
			if h.Scope == st.scope {
				ids = append(ids, h.ID)
			}
		}
		if len(ids) > 0 {
			errs = append(errs, st.MarkUsed(ids...))
		}
	}
	return errors.Join(errs...)
}

// Close closes both stores.
func (s *Set) Close() error {
	var errs []error
	for _, st := range s.stores() {
		errs = append(errs, st.Close())
	}
	return errors.Join(errs...)
}

// AddAll stores ms, each in the store of its scope, with one write per
// store (an import: one open and sync instead of one per memory). It
// checks them in order and stores those before the first bad one; it
// returns how many it stored, and the bad one's error.
func (s *Set) AddAll(ms []Memory) (int, error) {
	byScope := map[Scope][]Memory{}
	good, bad := len(ms), error(nil)
	for i, m := range ms {
		if m.Scope == "" {
			m.Scope = Workspace
		}
		_, err := s.store(m.Scope)
		if err == nil {
			m.Anchors = slices.Clone(m.Anchors)
			err = s.hashAnchors(&m)
		}
		if err == nil {
			check := m
			err = check.normalize()
		}
		if err != nil {
			good, bad = i, err
			break
		}
		byScope[m.Scope] = append(byScope[m.Scope], m)
	}
	for _, st := range s.stores() {
		if list := byScope[st.scope]; len(list) > 0 {
			if _, err := st.AddAll(list); err != nil {
				return 0, err
			}
		}
	}
	return good, bad
}
