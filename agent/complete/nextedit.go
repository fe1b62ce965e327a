package complete

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/nav"
)

// Next-edit proposals: after the user's edit, the edit that most likely
// comes next, found in the index rather than guessed by a model. Today one
// kind: an identifier renamed at one of its occurrences proposes the same
// rename at every other occurrence that meant the same declaration (a
// parameter's uses, a local's, and, when the index resolves it, an
// exported declaration's references in other files), which the user
// would otherwise chase by hand. A Go name used through a package the
// file does not import yet proposes the import (nextedit_import.go).

// Edit is one replacement a proposal makes: in Path (root-relative), the
// range [Start, End) in 0-based lines and byte columns of the text Read
// returns for it, by NewText.
type Edit struct {
	Path       string
	Start, End extract.Pos
	NewText    string
}

// Proposal is a next edit: its edits (any files) and what it does.
type Proposal struct {
	Edits []Edit
	// Why says what the proposal does ("rename n to count: 3 more uses").
	Why string
}

// NextEditSource is what NextEdit reads: the store, the edited buffer as
// the editor has it, the user's last edit in it and how to read other
// files as the editor sees them.
type NextEditSource struct {
	Store *index.Store
	Path  string
	Text  []byte
	// Last is the user's newest edit (EditRing.Recent()[0]); it must be of
	// Path.
	Last RecentEdit
	Read func(rel string) ([]byte, error)
}

// maxProposalEdits bounds a proposal (a rename with more uses is one for
// the editor's own rename).
const maxProposalEdits = 200

// NextEdit returns the proposal for src, ok false when there is none.
func NextEdit(src NextEditSource) (Proposal, bool) {
	if src.Store == nil || src.Last.Path != src.Path {
		return Proposal{}, false
	}
	p, ok := renameProposal(src)
	if !ok {
		p, ok = importProposal(src)
	}
	if !ok || reverts(src, p) {
		return Proposal{}, false
	}
	return p, true
}

// reverts reports whether applying p would give the lines of the user's
// last edit back what they held before it: never propose undoing what
// the user just did.
func reverts(src NextEditSource, p Proposal) bool {
	lines := strings.SplitAfter(string(src.Text), "\n")
	s, n := src.Last.StartLine-1, len(splitLines(src.Last.After))
	if s < 0 || s+n > len(lines) {
		return false
	}
	region := lines[s : s+n]
	changed := false
	// Edits of one line each, right to left within a line.
	for i := len(p.Edits) - 1; i >= 0; i-- {
		e := p.Edits[i]
		l := int(e.Start.Line) - s
		if e.Path != src.Path || l < 0 || l >= n || e.End.Line != e.Start.Line || int(e.End.Col) > len(region[l]) {
			continue
		}
		region[l] = region[l][:e.Start.Col] + e.NewText + region[l][e.End.Col:]
		changed = true
	}
	return changed && strings.Join(region, "") == src.Last.Before
}

var wordRE = regexp.MustCompile(`[A-Za-z_$][A-Za-z0-9_$]*`)

// renamedWord finds the one identifier an edit of one line changed: the
// before and after lines differ in exactly one word, at byte column col
// of the after line.
func renamedWord(e RecentEdit) (old, new string, col int, ok bool) {
	b, a := splitLines(e.Before), splitLines(e.After)
	if len(b) != 1 || len(a) != 1 {
		return "", "", 0, false
	}
	bw, aw := wordRE.FindAllStringIndex(b[0], -1), wordRE.FindAllStringIndex(a[0], -1)
	if len(bw) != len(aw) {
		return "", "", 0, false
	}
	diff := -1
	for i := range bw {
		if b[0][bw[i][0]:bw[i][1]] != a[0][aw[i][0]:aw[i][1]] {
			if diff >= 0 {
				return "", "", 0, false
			}
			diff = i
		}
	}
	if diff < 0 {
		return "", "", 0, false
	}
	// The rest of the line must be the same, around the word.
	if b[0][:bw[diff][0]] != a[0][:aw[diff][0]] || b[0][bw[diff][1]:] != a[0][aw[diff][1]:] {
		return "", "", 0, false
	}
	return b[0][bw[diff][0]:bw[diff][1]], a[0][aw[diff][0]:aw[diff][1]], aw[diff][0], true
}

// renameProposal: the last edit renamed one word; the references of the
// old name's declaration, resolved in the buffer as it was before the
// edit, are renamed too.
func renameProposal(src NextEditSource) (Proposal, bool) {
	old, renamed, col, ok := renamedWord(src.Last)
	if !ok || keywords[old] || keywords[renamed] {
		return Proposal{}, false
	}
	line := src.Last.StartLine - 1 // 0-based
	before, ok := bufferBefore(src.Text, src.Last)
	if !ok {
		return Proposal{}, false
	}
	off, err := index.LineColOffset(before, line+1, col+1)
	if err != nil {
		return Proposal{}, false
	}
	hits, resolved, err := nav.ReferencesAt(src.Store, src.Path, before, off, old, maxProposalEdits+1, src.Read)
	if err != nil || !resolved {
		// The server writes every keystroke to the index, which holds
		// the renamed declaration by now: the old name's references are
		// those of the declaration at the same place under its old name.
		hits, resolved = renamedDeclReferences(src, line, col, old, renamed)
	}
	if !resolved || len(hits) > maxProposalEdits {
		return Proposal{}, false
	}
	var edits []Edit
	for _, h := range hits {
		if h.Uncertain || h.Path == src.Path && int(h.Pos.Line) == line && int(h.Pos.Col) == col {
			continue // not surely the same declaration, or the edit itself
		}
		text := src.Text
		if h.Path != src.Path {
			if text, err = src.Read(h.Path); err != nil {
				continue
			}
		}
		if !wordAt(text, int(h.Pos.Line), int(h.Pos.Col), old) {
			continue // the text moved on since it was indexed
		}
		edits = append(edits, Edit{Path: h.Path, Start: h.Pos, End: extract.Pos{Line: h.Pos.Line, Col: h.Pos.Col + uint32(len(old))}, NewText: renamed})
	}
	if len(edits) == 0 {
		return Proposal{}, false
	}
	return Proposal{Edits: edits, Why: fmt.Sprintf("rename %s to %s: %d more %s", old, renamed, len(edits), plural(len(edits), "use", "uses"))}, true
}

// renamedDeclReferences answers for an edit that renamed a declaration
// the index already holds under its new name: the references the old
// name can have to the declaration at that place.
func renamedDeclReferences(src NextEditSource, line, col int, old, renamed string) ([]index.RefHit, bool) {
	off, err := index.LineColOffset(src.Text, line+1, col+1)
	if err != nil {
		return nil, false
	}
	decl, ok, err := nav.DeclarationAt(src.Store, src.Path, src.Text, off, renamed)
	if err != nil || !ok || decl.Path != src.Path || int(decl.Selection.Start.Line) != line || int(decl.Selection.Start.Col) != col {
		return nil, false
	}
	decl.Name = old
	hits, err := nav.DeclReferences(src.Store, decl, maxProposalEdits+1)
	if err != nil {
		return nil, false
	}
	// The store's records of the buffer's own file are the renamed
	// buffer's, whose other uses still read old: their positions hold.
	return hits, true
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// bufferBefore rebuilds the buffer as it was before e: its lines replaced
// by what they held. Lines below the edit keep their numbers only when
// the edit kept the line count, which a one-line rename does.
func bufferBefore(text []byte, e RecentEdit) ([]byte, bool) {
	lines := bytes.SplitAfter(text, []byte("\n"))
	s, n := e.StartLine-1, len(splitLines(e.After))
	if s < 0 || s+n > len(lines) {
		return nil, false
	}
	var b bytes.Buffer
	for _, l := range lines[:s] {
		b.Write(l)
	}
	if string(bytes.Join(lines[s:s+n], nil)) != e.After {
		return nil, false // the edit is not what the buffer holds now
	}
	b.WriteString(e.Before)
	for _, l := range lines[s+n:] {
		b.Write(l)
	}
	return b.Bytes(), true
}

// wordAt reports whether the identifier word starts at (line, col) of text.
func wordAt(text []byte, line, col int, word string) bool {
	off, err := index.LineColOffset(text, line+1, col+1)
	if err != nil || off+len(word) > len(text) || string(text[off:off+len(word)]) != word {
		return false
	}
	end := off + len(word)
	return end == len(text) || !isIdent(text[end])
}
