package mentions

import (
	"regexp"
	"strings"

	"go.lsp.dev/protocol"
)

// Kind is what a mention points at.
type Kind string

// The mention kinds of the protocol.
const (
	KindFile        Kind = "file"
	KindSymbol      Kind = "symbol"
	KindDiagnostics Kind = "diagnostics"
	KindChanges     Kind = "changes"
	KindSelection   Kind = "selection"
	KindURL         Kind = "url"
)

// Diagnostics scopes.
const (
	ScopeFile      = "file"
	ScopeWorkspace = "workspace"
)

// Mention is one @-mention as the protocol carries it: what the picker
// inserted into the message (Text) and what it means.
type Mention struct {
	Kind Kind   `json:"kind"`
	Text string `json:"text"`
	// Path is a file mention's workspace-relative path (a symbol's file).
	Path string `json:"path,omitempty"`
	// Name is a symbol mention's name, qualified by its container when
	// the picker showed it so ("Server.ListenAndServe").
	Name     string             `json:"name,omitempty"`
	Location *protocol.Location `json:"location,omitempty"`
	// Scope and URI are a diagnostics mention's: "file" (URI names it)
	// or "workspace".
	Scope string `json:"scope,omitempty"`
	URI   string `json:"uri,omitempty"`
	URL   string `json:"url,omitempty"`
}

// Item is one picker entry: what it shows and the mention it inserts.
type Item struct {
	Label   string  `json:"label"`
	Detail  string  `json:"detail,omitempty"`
	Mention Mention `json:"mention"`
}

// Report is what the user is shown of one expanded mention: a chip or a
// line "label · N tokens", or the error.
type Report struct {
	Kind   Kind   `json:"kind"`
	Text   string `json:"text"`
	Label  string `json:"label"`
	Tokens int    `json:"tokens"`
	Error  string `json:"error,omitempty"`
}

// refRE finds "@word" at the start of a word: "a@b.c" (an address) is
// not a mention. The word ends at a space, a quote, a bracket, a
// backtick, a comma or a semicolon.
var refRE = regexp.MustCompile(`(?:^|[\s(\[{"'])@([^\s"'<>()\[\]{}` + "`" + `,;]+)`)

// trailing is punctuation that ends a sentence after a mention ("see
// @a.go."): tried without it when the whole word resolves to nothing.
const trailing = ".,:;!?"

// Refs returns the words of text that follow an "@" at the start of a
// word, in order, each once ("@a.go" gives "a.go").
func Refs(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range refRE.FindAllStringSubmatch(text, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, m[1])
		}
	}
	return out
}

// Parse returns the mentions typed inline in msg, in order, each once.
// The special words become their kinds (@diagnostics, @changes,
// @selection, @url:ADDR); any other word is returned with an empty Kind
// and Path and Name set to it: a file if one exists at that path, else a
// symbol of that exact name, else plain text (Resolver decides).
func Parse(msg string) []Mention {
	var out []Mention
	for _, w := range Refs(msg) {
		out = append(out, parseWord(w))
	}
	return out
}

func parseWord(w string) Mention {
	m := Mention{Text: "@" + w}
	bare := strings.TrimRight(w, trailing)
	switch {
	case bare == "diagnostics":
		m.Kind = KindDiagnostics
	case bare == "changes":
		m.Kind = KindChanges
	case bare == "selection":
		m.Kind = KindSelection
	case strings.HasPrefix(w, "url:"):
		m.Kind, m.URL = KindURL, strings.TrimRight(strings.TrimPrefix(w, "url:"), trailing)
	default:
		m.Path, m.Name = w, w
	}
	return m
}

// identRE is a symbol name as one may type it inline: Name, or
// Container.Name.
var identRE = regexp.MustCompile(`^[\pL_][\pL\pN_]*(\.[\pL_][\pL\pN_]*)?$`)

// Specials are the mentions that are not files or symbols, in the
// picker's order.
var Specials = []Kind{KindDiagnostics, KindChanges, KindSelection, KindURL}
