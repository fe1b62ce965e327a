package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// recording is one server's answers to a sample, written with -save and
// read back with -replay. gopls needs gigabytes and minutes on GOROOT/src
// and its answers only change with the tree, so one recorded run can judge
// many parley builds; the per-site answers also let a developer see which
// references two servers disagree on.
type recording struct {
	Root          string       `json:"root"`
	FirstAnswerMs float64      `json:"firstAnswerMs,omitempty"`
	PeakRSSMB     float64      `json:"peakRssMB,omitempty"`
	Sites         []siteAnswer `json:"sites"`
}

type siteAnswer struct {
	Site  site    `json:"site"`
	Err   string  `json:"err,omitempty"`
	Defs  []loc   `json:"defs"`
	Refs  []loc   `json:"refs"`
	DefMs float64 `json:"defMs"`
	RefMs float64 `json:"refMs"`
}

func (r *recording) add(s site, a answers, err error) {
	sa := siteAnswer{Site: s, Defs: a.defs, Refs: a.refs, DefMs: ms(a.defT), RefMs: ms(a.refT)}
	if err != nil {
		sa.Err = err.Error()
	}
	r.Sites = append(r.Sites, sa)
}

// lookup returns the recorded answer for s; ok is false when the
// recording does not have it.
func (r *recording) lookup(s site) (answers, error, bool) {
	for _, sa := range r.Sites {
		if sa.Site != s {
			continue
		}
		a := answers{defs: sa.Defs, refs: sa.Refs, defT: fromMs(sa.DefMs), refT: fromMs(sa.RefMs)}
		if sa.Err != "" {
			return a, fmt.Errorf("%s", sa.Err), true
		}
		return a, nil, true
	}
	return answers{}, nil, false
}

func fromMs(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

func (r *recording) save(path string) error {
	b, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("save answers: %w", err)
	}
	return nil
}

func loadRecording(path, root string, sites []site) (*recording, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	var r recording
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("replay %s: %w", path, err)
	}
	if r.Root != root {
		return nil, fmt.Errorf("replay %s: recorded on %s, not %s", path, r.Root, root)
	}
	for _, s := range sites {
		if _, _, ok := r.lookup(s); !ok {
			return nil, fmt.Errorf("replay %s: no answer for %s:%d:%d (record a larger -n)", path, s.File, s.Line+1, s.Col+1)
		}
	}
	return &r, nil
}
