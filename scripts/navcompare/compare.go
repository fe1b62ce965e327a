package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/internal/procstat"
)

type config struct {
	parley, gopls, root, data string
	judge                     judge
	verbose                   bool
	// replay reads gopls's answers from a recording instead of running
	// it; save writes both servers' answers ("FILE.gopls.json",
	// "FILE.parley.json").
	replay, save string
}

// report is the JSON navcompare prints.
//
// The gopls* fields hold the judge's figures whichever judge ran (Judge
// names it), so that reports of all judges read alike.
type report struct {
	Root  string `json:"root"`
	Judge string `json:"judge"`
	Sites int    `json:"sites"`
	// Scored sites are those where gopls gave a definition.
	Scored int `json:"scored"`
	// JudgeOutside counts the sites not scored because the judge's first
	// definition is outside the root.
	JudgeOutside       int     `json:"judgeOutside"`
	DefinitionTop1     int     `json:"definitionTop1"`
	DefinitionAnywhere int     `json:"definitionAnywhere"`
	DefinitionTop1Pct  float64 `json:"definitionTop1Pct"`
	DefinitionAnyPct   float64 `json:"definitionAnywherePct"`
	// ReferencesPrecision and ReferencesRecall are means over the scored
	// sites where either server found a reference.
	ReferencesPrecision float64 `json:"referencesPrecision"`
	ReferencesRecall    float64 `json:"referencesRecall"`
	// ByRule scores the sites of each -rule apart when there were several.
	ByRule map[string]ruleScore `json:"byRule,omitempty"`
	// Latencies are client-side milliseconds.
	Parley             latencies   `json:"parley"`
	Gopls              latencies   `json:"gopls"`
	GoplsFirstAnswerMs float64     `json:"goplsFirstAnswerMs"`
	ParleyPeakRSSMB    float64     `json:"parleyPeakRssMB"`
	GoplsPeakRSSMB     float64     `json:"goplsPeakRssMB"`
	Misses             []miss      `json:"misses,omitempty"`
	GoplsErrors        []string    `json:"goplsErrors,omitempty"`
	PerSite            []siteScore `json:"perSite,omitempty"`
}

type latencies struct {
	DefinitionP50 float64 `json:"definitionP50Ms"`
	DefinitionP99 float64 `json:"definitionP99Ms"`
	ReferencesP50 float64 `json:"referencesP50Ms"`
	ReferencesP99 float64 `json:"referencesP99Ms"`
}

// miss is a site where parley's first definition is not gopls's.
type miss struct {
	Site   site `json:"site"`
	Gopls  loc  `json:"gopls"`
	Parley *loc `json:"parley,omitempty"`
}

// answers is one server's replies for one site.
type answers struct {
	defs, refs []loc
	defT, refT time.Duration
}

func compare(ctx context.Context, cfg config, sites []site) (*report, error) {
	if len(sites) == 0 {
		return nil, fmt.Errorf("no call sites sampled")
	}
	var errOut io.Writer = io.Discard
	if cfg.verbose {
		errOut = os.Stderr
	}
	p, err := start(ctx, "parley", cfg.parley, []string{"serve", "--log-file", os.DevNull, "--no-watch"}, []string{"PARLEY_DATA_DIR=" + cfg.data}, errOut)
	if err != nil {
		return nil, err
	}
	defer p.stop(ctx)
	if err := p.initialize(ctx, cfg.root, nil); err != nil {
		return nil, err
	}
	if err := waitParleyIdle(ctx, p); err != nil {
		return nil, fmt.Errorf("parley indexing: %w", err)
	}
	rep := &report{Root: cfg.root, Judge: cfg.judge.name, Sites: len(sites)}
	gopls, err := goplsAnswers(ctx, cfg, sites, errOut)
	if err != nil {
		return nil, err
	}
	rep.GoplsFirstAnswerMs, rep.GoplsPeakRSSMB = gopls.FirstAnswerMs, gopls.PeakRSSMB
	parley := &recording{Root: cfg.root}
	var sc scores
	var pl, gl timings
	for _, s := range sites {
		pa, err := ask(ctx, p, cfg.root, s)
		if err != nil {
			return nil, err
		}
		parley.add(s, pa, nil)
		ga, err, _ := gopls.lookup(s)
		if err != nil {
			// gopls refuses some positions ("no object found"); the site
			// has no judge and is not scored.
			rep.GoplsErrors = append(rep.GoplsErrors, err.Error())
			continue
		}
		if len(ga.defs) > 0 && filepath.IsAbs(ga.defs[0].Path) {
			// The judge's declaration is outside the tree (a builtin or
			// a C module in pyright's stubs): parley, which indexes the
			// tree, cannot answer it, so the site is not scored.
			rep.JudgeOutside++
			continue
		}
		pl.add(pa)
		gl.add(ga)
		if m := sc.add(s, pa, ga); m != nil {
			rep.Misses = append(rep.Misses, *m)
			if cfg.verbose {
				fmt.Fprintf(os.Stderr, "miss %s:%d:%d %s: gopls %v parley %v\n", s.File, s.Line+1, s.Col+1, s.Name, m.Gopls, m.Parley)
			}
		}
	}
	if cfg.save != "" {
		if err := parley.save(cfg.save + ".parley.json"); err != nil {
			return nil, err
		}
	}
	sc.fill(rep)
	rep.Parley, rep.Gopls = pl.summary(), gl.summary()
	rep.ParleyPeakRSSMB = procstat.PeakRSS(p.cmd.Process.Pid)
	return rep, nil
}

// goplsAnswers runs the judge (gopls, pyright, tsserver) on every site
// (saved when cfg.save is set), or reads its answers from cfg.replay.
func goplsAnswers(ctx context.Context, cfg config, sites []site, errOut io.Writer) (*recording, error) {
	if cfg.replay != "" {
		return loadRecording(cfg.replay, cfg.root, sites)
	}
	g, err := start(ctx, cfg.judge.name, cfg.gopls, cfg.judge.args, cfg.judge.env, errOut)
	if err != nil {
		return nil, err
	}
	defer g.stop(ctx)
	if err := g.initialize(ctx, cfg.root, cfg.judge.initOptions); err != nil {
		return nil, err
	}
	rec := &recording{Root: cfg.root}
	// The judge loads the whole workspace before its first answer; that
	// wait is reported on its own, not mixed into the per-request
	// latencies.
	// A refusal of the first site ("references to builtin "Pointer" are
	// not supported") is an answer too: the loop below records it.
	t := time.Now()
	if _, err := ask(ctx, g, cfg.root, sites[0]); err != nil && ctx.Err() != nil {
		return nil, err
	}
	rec.FirstAnswerMs = ms(time.Since(t))
	for _, s := range sites {
		a, err := ask(ctx, g, cfg.root, s)
		rec.add(s, a, err)
	}
	rec.PeakRSSMB = procstat.PeakRSS(g.cmd.Process.Pid)
	if cfg.save != "" {
		if err := rec.save(cfg.save + ".gopls.json"); err != nil {
			return nil, err
		}
	}
	return rec, nil
}

// ask opens the site's file, asks for its definition and references, and
// closes the file again.
func ask(ctx context.Context, s *server, root string, st site) (answers, error) {
	abs := filepath.Join(root, filepath.FromSlash(st.File))
	if err := s.open(ctx, abs); err != nil {
		return answers{}, err
	}
	defer s.close(ctx, abs)
	var a answers
	var err error
	if a.defs, a.defT, err = s.request(ctx, protocol.MethodTextDocumentDefinition, root, abs, st.Line, st.Col); err != nil {
		return a, err
	}
	a.refs, a.refT, err = s.request(ctx, protocol.MethodTextDocumentReferences, root, abs, st.Line, st.Col)
	return a, err
}
