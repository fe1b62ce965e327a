package extract

import (
	"bytes"
	"sort"
)

// Type switches. In `switch v := x.(type) { case *T: ... }` go/types gives
// each clause its own v: of type T in a clause listing one type, of x's
// type in a clause listing several, in `case nil` and in default; and v
// does not exist after the switch. The scan pass records v as a local
// declared by `x.(type)` (a goDef); these functions find the switch's
// body and its clauses from the source when a use of v is described, so
// that v.F in a clause is described by that clause's type.

// typeSwitch is the body of the switch a goDef declares.
type typeSwitch struct {
	x       int // offset of ".(type)"
	lb, rb  int // the body's braces
	clauses []switchClause
}

// switchClause is a "case" or "default" at the body's own depth: at is the
// offset after the keyword, single is set for a case listing exactly one
// type (other than nil).
type switchClause struct {
	at     int
	single bool
}

// typeSwitchOf returns the switch def i declares, or nil when it is not a
// type switch's variable.
func (o *operands) typeSwitchOf(i int) *typeSwitch {
	d := &o.defs[i]
	if d.typ || d.idx != 0 {
		return nil
	}
	if ts, ok := o.switches[i]; ok {
		return ts
	}
	seg := o.src[d.at:]
	if n := bytes.IndexByte(seg, '\n'); n >= 0 {
		seg = seg[:n]
	}
	k := bytes.Index(seg, []byte(".(type)"))
	if k < 0 {
		return nil
	}
	ts := scanTypeSwitch(o.src, d.at+k)
	if o.switches == nil {
		o.switches = map[int]*typeSwitch{}
	}
	o.switches[i] = ts
	return ts
}

// scanTypeSwitch reads the body after the ".(type)" at x: its extent and
// its clauses (nil when no body follows).
func scanTypeSwitch(src []byte, x int) *typeSwitch {
	lb := skipSpace(src, x+len(".(type)"))
	if lb >= len(src) || src[lb] != '{' {
		return nil
	}
	ts := &typeSwitch{x: x, lb: lb}
	depth := 0
	for j := lb + 1; j < len(src); j++ {
		switch c := src[j]; c {
		case '"', '\'', '`':
			end := skipLiteral(src, j)
			if end < 0 {
				return nil
			}
			j = end - 1
		case '/':
			j = skipComment(src, j)
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				ts.rb = j
				return ts
			}
			depth--
		case 'c', 'd':
			if depth != 0 || isIdentByte(src[j-1]) {
				continue
			}
			w, end := identAt(src, j)
			switch w {
			case "case":
				ts.clauses = append(ts.clauses, switchClause{at: end, single: singleType(src, end)})
			case "default":
				ts.clauses = append(ts.clauses, switchClause{at: end})
			}
			j = end - 1
		}
	}
	return nil
}

// singleType reports whether the case list at i (up to its ":") is one
// type other than nil.
func singleType(src []byte, i int) bool {
	if w, _ := identAt(src, skipSpace(src, i)); w == "nil" {
		return false
	}
	depth := 0
	for ; i < len(src); i++ {
		switch src[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				return false
			}
		case ':':
			if depth == 0 {
				return true
			}
		}
	}
	return false
}

// inside reports whether off is in the switch's body, where its variable
// is declared.
func (ts *typeSwitch) inside(off int) bool {
	return ts.lb < off && off < ts.rb
}

// caseDesc describes the variable of switch ts, declared at at, used at
// off in its body.
func (o *operands) caseDesc(ts *typeSwitch, at, off int) string {
	k := sort.Search(len(ts.clauses), func(k int) bool { return ts.clauses[k].at > off }) - 1
	if k < 0 {
		return ""
	}
	if c := ts.clauses[k]; c.single {
		return o.typeAt(c.at)
	}
	return o.switchedDesc(at, ts.x)
}

// switchedDesc describes x in `x.(type)`, written from at to end, when x
// is an identifier or a chain of selectors.
func (o *operands) switchedDesc(at, end int) string {
	i := skipSpace(o.src, at)
	a, j := identAt(o.src, i)
	if a == "" {
		return ""
	}
	desc := ""
	if _, ok := o.bound[a]; ok && !o.local(a, i) {
		desc = a
	} else if desc = o.nameDesc(a, i); desc == "" {
		return ""
	}
	for j < end && o.src[j] == '.' {
		b, k := identAt(o.src, j+1)
		if b == "" {
			return ""
		}
		desc += "." + b
		j = k
	}
	if j != end {
		return ""
	}
	return desc
}
