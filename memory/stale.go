package memory

import (
	"fmt"
	"strings"
)

// AnchorHasher returns the current content hash of what an anchor names
// (its file, or the symbol's range in it); ok false means the file or the
// symbol is gone. An error means it could not be told (an unreadable
// file), which leaves the anchor unjudged.
type AnchorHasher func(a Anchor) (hash string, ok bool, err error)

// hashAnchors records the current hash of each anchor of m. An anchor
// naming nothing that exists is the caller's mistake. Without a hasher
// the anchors are kept unhashed (never stale).
func (s *Set) hashAnchors(m *Memory) error {
	if s.Anchors == nil {
		return nil
	}
	for i, a := range m.Anchors {
		h, ok, err := s.Anchors(a)
		if err != nil {
			return err
		}
		if !ok {
			return invalidf("anchor %s: no such file or symbol", anchorName(a))
		}
		m.Anchors[i].Hash = h
	}
	return nil
}

// rehashAnchors hashes m's anchors anew, dropping those that name
// nothing any more (see Set.Update).
func (s *Set) rehashAnchors(m *Memory) error {
	if s.Anchors == nil {
		return nil
	}
	var kept []Anchor
	for _, a := range m.Anchors {
		h, ok, err := s.Anchors(a)
		if err != nil {
			return err
		}
		if ok {
			a.Hash = h
			kept = append(kept, a)
		}
	}
	m.Anchors = kept
	return nil
}

// Stale says why m's anchors no longer match the code: one reason per
// anchor whose file or symbol changed or disappeared since the memory was
// written. None when nothing changed, when the set has no hasher, or for
// anchors written without a hash.
func (s *Set) Stale(m Memory) []string {
	if s.Anchors == nil {
		return nil
	}
	var why []string
	for _, a := range m.Anchors {
		if a.Hash == "" {
			continue
		}
		h, ok, err := s.Anchors(a)
		switch {
		case err != nil:
			continue
		case !ok:
			why = append(why, anchorName(a)+" is gone")
		case h != a.Hash:
			why = append(why, anchorName(a)+" changed")
		}
	}
	return why
}

// ListStale lists the memories whose anchors changed, with the reasons.
func (s *Set) ListStale() ([]Hit, error) { return s.Select(Filter{Stale: true}) }

func (s *Set) markStale(hits []Hit) {
	for i := range hits {
		hits[i].Stale = s.Stale(hits[i].Memory)
	}
}

func anchorName(a Anchor) string {
	if a.Symbol != "" {
		return a.Path + "#" + a.Symbol
	}
	return a.Path
}

// FormatHit is FormatLine plus, for a stale memory, why it is stale.
func FormatHit(h Hit) string {
	line := FormatLine(h.Memory)
	if len(h.Stale) > 0 {
		line += fmt.Sprintf(" [STALE: %s since it was written]", strings.Join(h.Stale, "; "))
	}
	return line
}
