package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/parleyhq/parley/agent/complete"
	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/golang"
	"github.com/parleyhq/parley/index/nav"
)

// miss says why Build's context left out a site's declaration. It asks
// the same index calls Build makes (index/golang.CompletionAt for Go;
// for the other languages nav.DefinitionSymbolsAt on x, as
// agent/complete's membersOf does) and reads the snippets' reasons.
type miss struct {
	Class  string `json:"class"`
	Detail string `json:"detail"`
}

// Miss classes.
const (
	missNoType      = "type of x not inferred"
	missNoPackage   = "package API not found"
	missOtherType   = "type inferred, but Name is not among its own members (inherited, or another type)"
	missBudget      = "listed, but the budget was spent before it"
	missUnresolved  = "x not resolved"
	missNotName     = "operand is not a name (call result, subscript, literal)"
	missNoClass     = "x's declaration names no class (a call's result, an expression)"
	missSelf        = "x is self/this: the enclosing class is not looked up"
	missLocal       = "x is a parameter or local: its type is not read"
	missUnrecognize = "in the context, but the hit rule did not see it"
	missPanic       = "Build panicked"
	missModule      = "x is a module, but nothing was listed"
	missReexport    = "x's module listed, but Name comes from another module (star import, re-export)"
	missNoSelector  = "x. does not parse as a selector (after defer/go, no call yet)"
	missError       = "x is an error: the builtin Error method is left out"
)

func (b *bench) classify(s site, src complete.Source, p complete.Prepared) miss {
	if fromDecl := snippetsOf(p, s.Decl.Path, s.Name); fromDecl != "" {
		return miss{missUnrecognize, fmt.Sprintf("snippets of %s: %s", s.Decl.Path, fromDecl)}
	}
	if b.c.Lang == "go" {
		return b.goMiss(s, src, p)
	}
	return b.syntaxMiss(s, src, p)
}

func (b *bench) goMiss(s site, src complete.Source, p complete.Prepared) miss {
	cur := golang.CompletionAt(b.st, s.File, src.Text, src.Offset)
	x := operandText(src.Text, src.Offset)
	m := cur.Members
	line := strings.TrimSpace(x)
	switch {
	case m == nil && s.Decl.Path == "builtin/builtin.go":
		return miss{missError, x}
	case m == nil && (strings.HasPrefix(line, "defer ") || strings.HasPrefix(line, "go ")):
		return miss{missNoSelector, fmt.Sprintf("%s (%s declared on %s in %s)", x, s.Name, orTop(s.Decl.Container), s.Decl.Path)}
	}
	if m == nil {
		if s.Decl.Container == "" {
			return miss{missNoPackage, fmt.Sprintf("%s (%s declared in %s)", x, s.Name, s.Decl.Path)}
		}
		return miss{missNoType, fmt.Sprintf("%s (%s declared on %s in %s)", x, s.Name, s.Decl.Container, s.Decl.Path)}
	}
	at := -1
	for i, h := range m.Hits {
		if h.Path == s.Decl.Path && h.Symbol.Name == s.Name && int(h.Symbol.Selection.Start.Line)+1 == s.Decl.Line {
			at = i
			break
		}
	}
	if at < 0 {
		return miss{missOtherType, fmt.Sprintf("%s: inferred %s (%d members); %s is declared on %s in %s",
			x, m.Type, len(m.Hits), s.Name, orTop(s.Decl.Container), s.Decl.Path)}
	}
	order := fileOrder(m.Hits)
	return miss{missBudget, fmt.Sprintf("%s: %s is member %d of %d of %s, in file %d of %d; %s",
		x, s.Name, at+1, len(m.Hits), m.Type, slices.Index(order, s.Decl.Path)+1, len(order), spent(p))}
}

func (b *bench) syntaxMiss(s site, src complete.Source, p complete.Prepared) miss {
	x := operandText(src.Text, src.Offset)
	where := fmt.Sprintf("%s is declared on %s in %s", s.Name, orTop(s.Decl.Container), s.Decl.Path)
	for _, sn := range p.Request.Context {
		// Build's reasons: "members of C", "members of x's type C",
		// "members of the enclosing class C", "declarations of module m".
		if t, ok := strings.CutPrefix(sn.Why, "members of "); ok {
			class := t[strings.LastIndex(t, " ")+1:]
			if lastPart(class) == lastPart(s.Decl.Container) {
				return miss{missBudget, fmt.Sprintf("%s: members of %s listed; %s", x, class, spent(p))}
			}
			return miss{missOtherType, fmt.Sprintf("%s: listed %s; %s", x, class, where)}
		}
		if strings.HasPrefix(sn.Why, "declarations of module ") {
			if s.Decl.Container == "" && sn.Path != s.Decl.Path {
				return miss{missReexport, fmt.Sprintf("%s: listed %s; %s", x, sn.Path, where)}
			}
			return miss{missBudget, fmt.Sprintf("%s: %s listed; %s", x, sn.Path, spent(p))}
		}
	}
	text := string(src.Text)
	xe := src.Offset - 1
	xs := xe
	for xs > 0 && isIdentByte(text[xs-1]) {
		xs--
	}
	if xs == xe {
		return miss{missNotName, x}
	}
	defs, _ := nav.DefinitionSymbolsAt(b.st, s.File, src.Text, xs, text[xs:xe], src.Read)
	if len(defs) == 0 {
		return miss{missUnresolved, fmt.Sprintf("%s (%s declared on %s in %s)", x, s.Name, orTop(s.Decl.Container), s.Decl.Path)}
	}
	d := defs[0]
	switch d.Symbol.Kind {
	case extract.KindModule:
		return miss{missModule, fmt.Sprintf("%s: module %s; %s", x, d.Path, where)}
	case extract.KindClass, extract.KindInterface, extract.KindStruct, extract.KindEnum:
		return miss{missOtherType, fmt.Sprintf("%s: x is %s %s in %s, listed nothing; %s", x, d.Symbol.Kind, d.Symbol.Name, d.Path, where)}
	}
	name := text[xs:xe]
	switch {
	case name == "self" || name == "cls" || name == "this":
		return miss{missSelf, fmt.Sprintf("%s: %s", x, where)}
	case d.Symbol.Signature == "":
		return miss{missLocal, fmt.Sprintf("%s: %s at %s:%d; %s", x, d.Symbol.Kind, d.Path, d.Symbol.Selection.Start.Line+1, where)}
	}
	return miss{missNoClass, fmt.Sprintf("%s: %s %s:%d `%s`; %s",
		x, d.Symbol.Kind, d.Path, d.Symbol.Selection.Start.Line+1, firstLine(d.Symbol.Signature), where)}
}

// snippetsOf describes the snippets of the context from file path that
// mention name ("" when none): a sign that the declaration was there in a
// form the hit rule does not know.
func snippetsOf(p complete.Prepared, path, name string) string {
	var out []string
	for _, sn := range p.Request.Context {
		if sn.Path == path && declaresWord(sn.Text, name) {
			out = append(out, fmt.Sprintf("%d-%d (%s)", sn.StartLine, sn.EndLine, sn.Why))
		}
	}
	return strings.Join(out, ", ")
}

// spent says what the context budget went to, by reason.
func spent(p complete.Prepared) string {
	var parts []string
	count := map[string]int{}
	var order []string
	for _, sn := range p.Request.Context {
		why := sn.Why
		switch {
		case strings.HasPrefix(why, "members of "), strings.HasPrefix(why, "exported API of "):
			why = "members"
		case strings.HasPrefix(why, "declares "):
			why = "lexical"
		}
		if count[why] == 0 {
			order = append(order, why)
		}
		count[why]++
	}
	for _, w := range order {
		parts = append(parts, fmt.Sprintf("%d %s", count[w], w))
	}
	return fmt.Sprintf("context %d tokens: %s", p.ContextTokens, strings.Join(parts, ", "))
}

// operandText is the text of the cursor's line before the cursor, for
// a miss's report.
func operandText(src []byte, off int) string {
	s := string(src[:off])
	s = strings.TrimSpace(s[strings.LastIndexByte(s, '\n')+1:])
	if len(s) > 48 {
		s = "…" + s[len(s)-47:]
	}
	return s
}

// fileOrder is the files of hits in the order addHits shows them: by
// each file's best hit.
func fileOrder(hits []index.SymbolHit) []string {
	var out []string
	for _, h := range hits {
		if !slices.Contains(out, h.Path) {
			out = append(out, h.Path)
		}
	}
	return out
}

func orTop(container string) string {
	if container == "" {
		return "(top level)"
	}
	return container
}

func lastPart(s string) string { return s[strings.LastIndexByte(s, '.')+1:] }

// declaresWord reports whether a line of text declares name: name comes
// before the line's first parenthesis, a Go receiver aside (`func (t
// *T) name(`, `def name(`, `public name(`), and the line is no comment.
func declaresWord(text, name string) bool {
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "*") {
			continue
		}
		if r, ok := strings.CutPrefix(t, "func ("); ok {
			_, t, _ = strings.Cut(r, ")")
		}
		if i := strings.IndexByte(t, '('); i >= 0 {
			t = t[:i]
		}
		if hasWord(t, name) {
			return true
		}
	}
	return false
}

// hasWord reports whether name occurs in text as a whole identifier.
func hasWord(text, name string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		a, b := i+j, i+j+len(name)
		if (a == 0 || !isIdentByte(text[a-1])) && (b == len(text) || !isIdentByte(text[b])) {
			return true
		}
		i = a + 1
	}
}
