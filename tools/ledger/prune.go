package ledger

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
)

// Bounds of one session's ledger. A long session reads many files, and
// its store log grows by a record per read; without bounds both grow for
// as long as the session lives (sessions are resumed for weeks).
//
//   - At most MaxFiles files and MaxContentBytes of their content are
//     remembered. Beyond either, the files the model got longest ago (by
//     turn, then path) are forgotten first: their next read is a full
//     one, which costs tokens but is never wrong.
//   - A Store that can rewrite its records (Rewriter) has its log
//     rewritten, once it holds more than twice the remembered files plus
//     rewriteSlack records, as one record per remembered file and one
//     holding the token totals, so the log is bounded by the files too
//     and the totals survive.
const (
	MaxFiles        = 1024
	MaxContentBytes = 32 << 20
	rewriteSlack    = 256
)

// kindTotals is the record holding the token totals of the records a
// rewrite dropped (Record.Totals).
const kindTotals = "totals"

// Rewriter is a Store that can replace all of a session's records in one
// atomic write (agent.SessionLedger).
type Rewriter interface {
	ReplaceLedger(recs []Record) error
}

// prune applies the bounds after a commit. Precondition: l.mu is held.
func (l *Ledger) prune() error {
	evicted := l.evict()
	rw, ok := l.store.(Rewriter)
	if !ok {
		// A store that only appends learns of each eviction.
		for _, p := range evicted {
			if err := l.append(Record{Path: p, Kind: kindForget}); err != nil {
				return err
			}
		}
		return nil
	}
	if len(evicted) == 0 && l.stored <= 2*len(l.files)+rewriteSlack {
		return nil
	}
	recs := []Record{{Kind: kindTotals, Totals: maps.Clone(l.stats.ByKind)}}
	for _, p := range slices.Sorted(maps.Keys(l.files)) {
		f := l.files[p]
		recs = append(recs, Record{Path: p, Kind: kindShown, Turn: f.turn, Hash: f.hash, Seen: f.seen, SeenTurn: f.turn,
			FromEdit: f.fromEdit, Edited: f.edited, Pending: f.pending, Outline: f.outline, Content: f.content})
	}
	for i := range recs {
		l.seq++
		recs[i].Seq = l.seq
	}
	if err := rw.ReplaceLedger(recs); err != nil {
		return fmt.Errorf("ledger: rewrite: %w", err)
	}
	l.stored = len(recs)
	return nil
}

// evict forgets the files beyond the bounds, oldest first, and returns
// them. Precondition: l.mu is held.
func (l *Ledger) evict() []string {
	size := 0
	for _, f := range l.files {
		size += len(f.content)
	}
	if len(l.files) <= MaxFiles && size <= MaxContentBytes {
		return nil
	}
	paths := slices.SortedFunc(maps.Keys(l.files), func(a, b string) int {
		return cmp.Or(cmp.Compare(l.files[a].turn, l.files[b].turn), cmp.Compare(a, b))
	})
	var out []string
	for _, p := range paths {
		if len(l.files) <= MaxFiles && size <= MaxContentBytes {
			break
		}
		size -= len(l.files[p].content)
		delete(l.files, p)
		out = append(out, p)
	}
	return out
}
