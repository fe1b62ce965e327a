package ledger

import "maps"

// Mechanism is the token accounting of one kind of answer.
type Mechanism struct {
	Reads    int `json:"reads"`
	Sent     int `json:"sent"`
	Baseline int `json:"baseline"`
}

// Saved is what the mechanism saved against showing the lines in full.
func (m Mechanism) Saved() int { return max(m.Baseline-m.Sent, 0) }

// Stats is a session's read accounting, by the Kind names of the answers.
type Stats struct {
	ByKind map[string]Mechanism `json:"by_kind"`
}

func newStats() Stats { return Stats{ByKind: map[string]Mechanism{}} }

// Total sums every mechanism.
func (s Stats) Total() Mechanism {
	var t Mechanism
	for _, m := range s.ByKind {
		t.Reads += m.Reads
		t.Sent += m.Sent
		t.Baseline += m.Baseline
	}
	return t
}

func (s *Stats) add(r Record) {
	if r.Kind == kindEdit || r.Kind == kindForget || r.Kind == kindShown || r.Kind == kindTotals {
		return
	}
	m := s.ByKind[r.Kind]
	m.Reads++
	m.Sent += r.Sent
	m.Baseline += r.Baseline
	s.ByKind[r.Kind] = m
}

func (s Stats) clone() Stats { return Stats{ByKind: maps.Clone(s.ByKind)} }
