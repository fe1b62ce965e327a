package complete

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// Event is one thing counted about completions: an item offered (with
// the time spent building its request and waiting for the model), shown,
// accepted whole or in part, or dismissed. Events stay on the machine.
type Event struct {
	Time      time.Time `json:"time"`
	Kind      string    `json:"kind"`
	ID        string    `json:"id"`
	Language  string    `json:"language"`
	ContextMS float64   `json:"context_ms,omitempty"`
	ModelMS   float64   `json:"model_ms,omitempty"`
	Chars     int       `json:"chars,omitempty"`
}

// The kinds of the events of next-edit proposals.
const (
	NextEditOffered  = "next-edit-offered"
	NextEditAccepted = "next-edit-accepted"
)

// maxLogBytes bounds a stats log: past it, the older half is dropped.
const maxLogBytes = 4 << 20

// StatsLog appends events to a JSON-lines file (one per workspace, beside
// its index). Safe for concurrent use; a write error is returned by the
// next Close and otherwise ignored, as counting must never fail a
// completion.
type StatsLog struct {
	mu   sync.Mutex
	path string
	err  error
}

// StatsPath is the stats log of the workspace whose index is in
// storeDir: beside it.
func StatsPath(storeDir string) string {
	return filepath.Join(filepath.Dir(storeDir), "completions.jsonl")
}

// OpenStatsLog returns the log at path (created on the first event).
func OpenStatsLog(path string) *StatsLog { return &StatsLog{path: path} }

// Add appends ev.
func (l *StatsLog) Add(ev Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, err := json.Marshal(ev)
	if err == nil {
		err = l.appendLine(append(b, '\n'))
	}
	if err != nil && l.err == nil {
		l.err = fmt.Errorf("completion stats %s: %w", l.path, err)
	}
}

func (l *StatsLog) appendLine(b []byte) error {
	if err := os.MkdirAll(filepath.Dir(l.path), 0o755); err != nil {
		return err
	}
	if fi, err := os.Stat(l.path); err == nil && fi.Size()+int64(len(b)) > maxLogBytes {
		if err := l.halve(); err != nil {
			return err
		}
	}
	f, err := os.OpenFile(l.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// halve keeps the newer half of the log's lines.
func (l *StatsLog) halve() error {
	data, err := os.ReadFile(l.path)
	if err != nil {
		return err
	}
	cut := len(data) / 2
	for cut < len(data) && data[cut-1] != '\n' {
		cut++
	}
	tmp := l.path + ".tmp"
	if err := os.WriteFile(tmp, data[cut:], 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, l.path)
}

// Err is the first write error, if any.
func (l *StatsLog) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// LangStats sums one language's events.
type LangStats struct {
	Language                                   string
	Offered, Shown, Accepted, Partial          int
	Dismissed                                  int
	ContextP50, ContextP99, ModelP50, ModelP99 float64 // milliseconds
	// NextOffered and NextAccepted count next-edit proposals.
	NextOffered, NextAccepted int
}

// ReadStats sums the log at path per language, in language order. A
// missing log is no events; a malformed line is skipped.
func ReadStats(path string) ([]LangStats, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("completion stats: %w", err)
	}
	defer f.Close()
	by := map[string]*LangStats{}
	ctxMS, modelMS := map[string][]float64{}, map[string][]float64{}
	partial := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var ev Event
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		s := by[ev.Language]
		if s == nil {
			s = &LangStats{Language: ev.Language}
			by[ev.Language] = s
		}
		switch ev.Kind {
		case "offered":
			s.Offered++
			ctxMS[ev.Language] = append(ctxMS[ev.Language], ev.ContextMS)
			modelMS[ev.Language] = append(modelMS[ev.Language], ev.ModelMS)
		case "shown":
			s.Shown++
		case "accepted":
			s.Accepted++
		case "partial":
			// An item accepted word by word counts once.
			if !partial[ev.ID] {
				partial[ev.ID] = true
				s.Partial++
			}
		case "dismissed":
			s.Dismissed++
		case NextEditOffered:
			s.NextOffered++
		case NextEditAccepted:
			s.NextAccepted++
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("completion stats %s: %w", path, err)
	}
	out := make([]LangStats, 0, len(by))
	for lang, s := range by {
		s.ContextP50, s.ContextP99 = percentile(ctxMS[lang], 50), percentile(ctxMS[lang], 99)
		s.ModelP50, s.ModelP99 = percentile(modelMS[lang], 50), percentile(modelMS[lang], 99)
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b LangStats) int {
		if a.Language < b.Language {
			return -1
		}
		if a.Language > b.Language {
			return 1
		}
		return 0
	})
	return out, nil
}

// percentile is the nearest-rank percentile p of xs (0 for none).
func percentile(xs []float64, p int) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := (p*len(s)+99)/100 - 1
	return s[min(max(i, 0), len(s)-1)]
}
