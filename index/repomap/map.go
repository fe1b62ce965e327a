package repomap

import (
	"errors"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
)

// Options control one rendering.
type Options struct {
	// Tokens is the budget; 0 or less disables the map.
	Tokens int
	// Focus are store-relative paths to personalise the ranking toward.
	Focus []string
	// Count counts the tokens of a text (the caller's tokenizer).
	Count func(string) (int, error)
}

// Per-file caps: a file's entry lists at most this many symbols, and the
// map stops after this many files that did not fit, since later files
// rank lower and rarely fit better.
const (
	maxSymbolsPerFile = 24
	maxMisses         = 8
	maxSignature      = 120
)

// Ranked is one file with its PageRank score (the scores sum to 1).
type Ranked struct {
	Path  string
	Score float64
}

// Build renders the map within o.Tokens.
func (m *Mapper) Build(o Options) (string, error) {
	if o.Tokens <= 0 {
		return "", nil
	}
	if o.Count == nil {
		return "", fmt.Errorf("repo map: no token counter")
	}
	var b strings.Builder
	used, misses := 0, 0
	ranked, err := m.Rank(o.Focus)
	if err != nil {
		return "", err
	}
	for _, r := range ranked {
		if misses >= maxMisses {
			break
		}
		syms, err := m.st.Symbols(r.Path)
		if errors.Is(err, index.ErrNotIndexed) {
			continue // removed since the ranking was computed
		}
		if err != nil {
			return "", fmt.Errorf("repo map %s: %w", r.Path, err)
		}
		entry := fileEntry(r.Path, syms)
		if entry == "" {
			continue
		}
		// Counted separately, the entries' tokens add up to at least
		// the whole's: each starts on a new line, where BPE merges stop.
		n, err := o.Count(entry)
		if err != nil {
			return "", fmt.Errorf("repo map: %w", err)
		}
		if used+n > o.Tokens {
			misses++
			continue
		}
		b.WriteString(entry)
		used += n
	}
	return b.String(), nil
}

// fileEntry renders one file: its path, then its key symbols indented.
// Key symbols are the exported ones, or the top-level ones in a language
// without exports; a file with neither is left out.
func fileEntry(p string, syms []extract.Symbol) string {
	depth := make([]int, len(syms))
	var keep []int
	for i, s := range syms {
		if p := s.Parent; p >= 0 && int(p) < i {
			depth[i] = depth[p] + 1
		}
		if s.Exported {
			keep = append(keep, i)
		}
	}
	if len(keep) == 0 {
		for i, s := range syms {
			if s.Parent < 0 {
				keep = append(keep, i)
			}
		}
	}
	if len(keep) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(p + ":\n")
	for n, i := range keep {
		if n == maxSymbolsPerFile {
			fmt.Fprintf(&b, "  … %d more\n", len(keep)-n)
			break
		}
		b.WriteString(strings.Repeat("  ", 1+depth[i]) + symbolLine(syms[i]) + "\n")
	}
	return b.String()
}

func symbolLine(s extract.Symbol) string {
	sig := strings.TrimSpace(s.Signature)
	if sig == "" {
		sig = s.Kind.String() + " " + s.Name
	}
	// A one-line definition's body is not part of its signature.
	if i := strings.Index(sig, " { "); i > 0 && strings.HasSuffix(sig, "}") {
		sig = sig[:i]
	}
	sig = strings.TrimSpace(strings.TrimSuffix(sig, "{"))
	if len(sig) > maxSignature {
		sig = strings.ToValidUTF8(sig[:maxSignature], "") + "…"
	}
	return sig
}
