package main

import (
	"path/filepath"
	"slices"
	"time"
)

// scores accumulates the agreement of parley's answers with gopls's.
type scores struct {
	scored, top1, anywhere int
	precision, recall      float64
	refSites               int
	sites                  []siteScore
}

// siteScore is one scored site, in sample order, so that runs with a
// larger -n can be compared with a smaller one on the shared prefix.
type siteScore struct {
	Site      site    `json:"site"`
	Top1      bool    `json:"top1"`
	Anywhere  bool    `json:"anywhere"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	Refs      bool    `json:"refs"` // either server found a reference
}

// add scores one site and returns it as a miss when parley's first
// definition is not gopls's. Sites without a gopls definition are not
// scored.
func (sc *scores) add(s site, p, g answers) *miss {
	if len(g.defs) == 0 {
		return nil
	}
	sc.scored++
	want := g.defs[0]
	ss := siteScore{Site: s}
	defer func() { sc.sites = append(sc.sites, ss) }()
	var m *miss
	if len(p.defs) > 0 && p.defs[0] == want {
		sc.top1++
		ss.Top1 = true
	} else {
		m = &miss{Site: s, Gopls: want}
		if len(p.defs) > 0 {
			m.Parley = &p.defs[0]
		}
	}
	if slices.Contains(p.defs, want) {
		sc.anywhere++
		ss.Anywhere = true
	}
	if pr, rc, ok := precisionRecall(p.refs, inTree(g.refs)); ok {
		sc.precision += pr
		sc.recall += rc
		sc.refSites++
		ss.Precision, ss.Recall, ss.Refs = pr, rc, true
	}
	return m
}

func (sc *scores) fill(r *report) {
	r.Scored, r.DefinitionTop1, r.DefinitionAnywhere = sc.scored, sc.top1, sc.anywhere
	r.PerSite = sc.sites
	r.ByRule = byRule(sc.sites)
	if sc.scored > 0 {
		r.DefinitionTop1Pct = 100 * float64(sc.top1) / float64(sc.scored)
		r.DefinitionAnyPct = 100 * float64(sc.anywhere) / float64(sc.scored)
	}
	if sc.refSites > 0 {
		r.ReferencesPrecision = sc.precision / float64(sc.refSites)
		r.ReferencesRecall = sc.recall / float64(sc.refSites)
	}
}

// ruleScore is the scores of the sites one -rule drew.
type ruleScore struct {
	Scored              int     `json:"scored"`
	DefinitionTop1      int     `json:"definitionTop1"`
	ReferencesPrecision float64 `json:"referencesPrecision"`
	ReferencesRecall    float64 `json:"referencesRecall"`
}

// byRule scores each rule's sites apart; nil when one rule drew them all.
func byRule(sites []siteScore) map[string]ruleScore {
	out := map[string]ruleScore{}
	refs := map[string]int{}
	for _, s := range sites {
		rs := out[s.Site.Rule]
		rs.Scored++
		if s.Top1 {
			rs.DefinitionTop1++
		}
		if s.Refs {
			rs.ReferencesPrecision += s.Precision
			rs.ReferencesRecall += s.Recall
			refs[s.Site.Rule]++
		}
		out[s.Site.Rule] = rs
	}
	if len(out) < 2 {
		return nil
	}
	for k, rs := range out {
		if n := refs[k]; n > 0 {
			rs.ReferencesPrecision /= float64(n)
			rs.ReferencesRecall /= float64(n)
		}
		out[k] = rs
	}
	return out
}

// inTree drops the judge's references outside the tree (absolute paths:
// the declaration in pyright's stubs or TypeScript's lib.d.ts), which
// parley, indexing the tree, can never list; they would count against
// its recall at every site whose declaration has a stub.
func inTree(refs []loc) []loc {
	var out []loc
	for _, l := range refs {
		if !filepath.IsAbs(l.Path) {
			out = append(out, l)
		}
	}
	return out
}

// precisionRecall compares got with want as sets; ok is false when both
// are empty. An empty got has precision 1 (it claimed nothing wrong) and an
// empty want recall 1.
func precisionRecall(got, want []loc) (precision, recall float64, ok bool) {
	if len(got) == 0 && len(want) == 0 {
		return 0, 0, false
	}
	w := make(map[loc]bool, len(want))
	for _, l := range want {
		w[l] = true
	}
	g := make(map[loc]bool, len(got))
	hit := 0
	for _, l := range got {
		if g[l] {
			continue
		}
		g[l] = true
		if w[l] {
			hit++
		}
	}
	precision, recall = 1, 1
	if len(g) > 0 {
		precision = float64(hit) / float64(len(g))
	}
	if len(w) > 0 {
		recall = float64(hit) / float64(len(w))
	}
	return precision, recall, true
}

type timings struct{ defs, refs []time.Duration }

func (t *timings) add(a answers) {
	t.defs = append(t.defs, a.defT)
	t.refs = append(t.refs, a.refT)
}

func (t *timings) summary() latencies {
	return latencies{
		DefinitionP50: quantile(t.defs, 0.5), DefinitionP99: quantile(t.defs, 0.99),
		ReferencesP50: quantile(t.refs, 0.5), ReferencesP99: quantile(t.refs, 0.99),
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// quantile is the nearest-rank quantile q of d, in milliseconds.
func quantile(d []time.Duration, q float64) float64 {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return ms(s[min(len(s)-1, int(q*float64(len(s))))])
}
