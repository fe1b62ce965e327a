package complete

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
)

// The members after `x.` in Python, TypeScript and JavaScript, where the
// index resolves x through the navigation path: x a class (its members),
// a module (its top-level declarations), self/this/cls (the enclosing
// class's), or a binding whose declaration names its class (`x: Foo`,
// `x = Foo(...)`, `x = new Foo()`, `const x: Foo`).

// selfNames are the receivers that mean the enclosing class.
var selfNames = map[string]bool{"self": true, "this": true, "cls": true}

func membersOf(src Source, c *snippets, xOff int, x, partial string) {
	if selfNames[x] {
		if p, class, ok := enclosingClass(src); ok {
			addMembers(src, c, p, class, partial, fmt.Sprintf("members of the enclosing class %s", class))
		}
		return
	}
	defs := src.definitions(xOff, x)
	if len(defs) == 0 {
		membersFromUses(src, c, xOff, x, partial)
		return
	}
	d := defs[0]
	switch k := d.Symbol.Kind; {
	case classLike(k):
		addMembers(src, c, d.Path, qualified(d.Symbol), partial, fmt.Sprintf("members of %s", qualified(d.Symbol)))
	case k == extract.KindModule || k == extract.KindFile || k == extract.KindNamespace || k == extract.KindPackage:
		moduleMembers(src, c, d.Path, x, partial)
	default:
		class := declaredClass(src, d, x)
		if class == "" {
			membersFromUses(src, c, xOff, x, partial)
			return
		}
		for _, h := range classes(src.Store, class) {
			addMembers(src, c, h.Path, qualified(h.Symbol), partial, fmt.Sprintf("members of %s's type %s", x, class))
			return
		}
	}
}

// maxUseTries bounds the other uses of x membersFromUses resolves.
const maxUseTries = 4

// membersFromUses finds x's class from x's other member accesses in the
// buffer, the nearest first: the class declaring the member one of them
// resolves to (a callback's parameter, a local of a call's result, which
// the declaration line does not name).
func membersFromUses(src Source, c *snippets, xOff int, x, partial string) {
	re, err := regexp.Compile(`(?:^|[^A-Za-z0-9_$.])` + regexp.QuoteMeta(x) + `\??\.([A-Za-z_$][A-Za-z0-9_$]*)`)
	if err != nil {
		return
	}
	type use struct{ off, dist int }
	var uses []use
	for _, m := range re.FindAllSubmatchIndex(src.Text, -1) {
		if m[2] == xOff+len(x)+1 {
			continue // the cursor's own
		}
		uses = append(uses, use{m[2], max(m[2]-xOff, xOff-m[2])})
	}
	slices.SortFunc(uses, func(a, b use) int { return a.dist - b.dist })
	// The types the uses' members are declared on, nearest use first: a
	// use the index resolves only to an interface the class implements
	// (NextObserver for Subscriber's next) must not hide the class
	// another use finds.
	seen := map[string]bool{}
	for _, u := range uses[:min(len(uses), maxUseTries)] {
		end := u.off
		for end < len(src.Text) && isIdent(src.Text[end]) {
			end++
		}
		for _, d := range src.definitions(u.off, string(src.Text[u.off:end])) {
			key := d.Path + "\x00" + d.Symbol.Container
			if d.Symbol.Container == "" || d.Symbol.Kind == extract.KindVariable || seen[key] || len(seen) == maxUseTypes {
				continue
			}
			seen[key] = true
			addMembers(src, c, d.Path, d.Symbol.Container, partial, fmt.Sprintf("members of %s's type %s (from its use as %s.%s)", x, d.Symbol.Container, x, src.Text[u.off:end]))
		}
	}
}

// maxUseTypes bounds the types membersFromUses lists.
const maxUseTypes = 3

func classLike(k extract.SymbolKind) bool {
	return k == extract.KindClass || k == extract.KindInterface || k == extract.KindStruct || k == extract.KindEnum
}

// classOf finds the class a declaration's text names for x: in its
// signature, or right after x on its line.
var (
	classOf     = regexp.MustCompile(`(?::\s*|=\s*(?:new\s+|await\s+)?)([A-Z][A-Za-z0-9_]*)`)
	classAfterX = regexp.MustCompile(`^\s*(?::\s*|=\s*(?:new\s+|await\s+)?)([A-Z][A-Za-z0-9_]*)`)
)

// declaredClass reads the class x's declaration names: its signature, else
// its line in the file as the caller sees it.
func declaredClass(src Source, d index.SymbolHit, x string) string {
	if m := classOf.FindStringSubmatch(d.Symbol.Signature); m != nil {
		return m[1]
	}
	text := src.Text
	if d.Path != src.Path {
		if src.Read == nil {
			return ""
		}
		var err error
		if text, err = src.Read(d.Path); err != nil {
			return ""
		}
	}
	lines := bytes.Split(text, []byte("\n"))
	l := int(d.Symbol.Selection.Start.Line)
	if l >= len(lines) {
		return ""
	}
	line := string(lines[l])
	i := int(d.Symbol.Selection.Start.Col)
	if i+len(x) > len(line) || line[i:i+len(x)] != x {
		return ""
	}
	if m := classAfterX.FindStringSubmatch(line[i+len(x):]); m != nil {
		return m[1]
	}
	return ""
}

// enclosingClass is the innermost class of the stored symbols of src's
// file around the cursor's line.
func enclosingClass(src Source) (string, string, bool) {
	syms, err := src.Store.Symbols(src.Path)
	if err != nil {
		return "", "", false
	}
	line := uint32(bytes.Count(src.Text[:min(max(src.Offset, 0), len(src.Text))], []byte("\n")))
	best := -1
	for i, s := range syms {
		if classLike(s.Kind) && s.Range.Start.Line <= line && line <= s.Range.End.Line {
			if best < 0 || s.Range.Start.Line >= syms[best].Range.Start.Line {
				best = i
			}
		}
	}
	if best < 0 {
		return "", "", false
	}
	return src.Path, qualified(syms[best]), true
}

// addMembers adds the members of class, declared in p, then those it
// inherits, those matching what is typed and those the file already uses
// first. A module's declarations are moduleMembers'.
func addMembers(src Source, c *snippets, p, class, partial, why string) {
	syms, err := src.Store.Symbols(p)
	if err != nil {
		return
	}
	var hits []index.SymbolHit
	for _, s := range syms {
		if s.Container == class {
			hits = append(hits, index.SymbolHit{Path: p, Symbol: s})
		}
	}
	hits = append(hits, inherited(src.Store, syms, class, hits, 0)...)
	rankMembers(src, hits, partial)
	addHits(c, hits, why)
}

// rankMembers puts first the members matching what is typed, then those
// src's file already uses; the order is otherwise kept.
func rankMembers(src Source, hits []index.SymbolHit, partial string) {
	refs, _, _ := src.Store.FileNames(src.Path)
	used := make(map[string]bool, len(refs))
	for _, r := range refs {
		used[r] = true
	}
	lower := strings.ToLower(partial)
	score := func(h index.SymbolHit) int {
		n := 0
		if lower != "" && strings.HasPrefix(strings.ToLower(h.Symbol.Name), lower) {
			n += 2
		}
		if used[h.Symbol.Name] {
			n++
		}
		return n
	}
	slices.SortStableFunc(hits, func(a, b index.SymbolHit) int { return score(b) - score(a) })
}

// Base classes in a class's signature: Python's `class A(B, mod.C):`,
// TypeScript's and JavaScript's `class A extends B`.
var (
	pyBases = regexp.MustCompile(`^class\s+\w+\s*\(([^)]*)\)`)
	tsBase  = regexp.MustCompile(`\bextends\s+([A-Za-z_$][\w$.]*)`)
)

// maxBaseDepth bounds how far inherited follows base classes.
const maxBaseDepth = 3

// inherited lists the members class (declared among syms) inherits from
// its base classes, those have (own) shadowing theirs.
func inherited(st *index.Store, syms []extract.Symbol, class string, have []index.SymbolHit, depth int) []index.SymbolHit {
	if depth >= maxBaseDepth {
		return nil
	}
	var bases []string
	for _, s := range syms {
		if qualified(s) != class || !classLike(s.Kind) {
			continue
		}
		if m := pyBases.FindStringSubmatch(s.Signature); m != nil {
			for _, b := range strings.Split(m[1], ",") {
				if b = strings.TrimSpace(b); b != "" && !strings.Contains(b, "=") {
					bases = append(bases, b[strings.LastIndexByte(b, '.')+1:])
				}
			}
		} else if m := tsBase.FindStringSubmatch(s.Signature); m != nil {
			bases = append(bases, m[1][strings.LastIndexByte(m[1], '.')+1:])
		}
	}
	seen := map[string]bool{}
	for _, h := range have {
		seen[h.Symbol.Name] = true
	}
	var out []index.SymbolHit
	for _, b := range bases {
		cs := classes(st, b)
		if len(cs) == 0 {
			continue
		}
		bc := cs[0]
		bsyms, err := st.Symbols(bc.Path)
		if err != nil {
			continue
		}
		for _, s := range bsyms {
			if s.Container == qualified(bc.Symbol) && !seen[s.Name] {
				seen[s.Name] = true
				out = append(out, index.SymbolHit{Path: bc.Path, Symbol: s})
			}
		}
		out = append(out, inherited(st, bsyms, qualified(bc.Symbol), slices.Concat(have, out), depth+1)...)
	}
	return out
}

// qualified is a symbol's name with its container.
func qualified(s extract.Symbol) string {
	if s.Container == "" {
		return s.Name
	}
	return s.Container + "." + s.Name
}

// classes are the class-like declarations named name.
func classes(st *index.Store, name string) []index.SymbolHit {
	hits, err := st.Definitions(name)
	if err != nil {
		return nil
	}
	return slices.DeleteFunc(hits, func(h index.SymbolHit) bool {
		return h.Symbol.Name != name || !classLike(h.Symbol.Kind)
	})
}
