package complete

import (
	"fmt"
	"strings"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/typescript"
)

// operandMembers adds, in TypeScript and JavaScript, the members of what
// the operand before the dot at dot evaluates to, as go-to-definition
// evaluates it (typescript.OperandAt): a callback's parameter typed by
// the called function's signature, a call's result, `x?.`, `(x as T)`.
// The class's own members come first, then those of what it extends and
// implements, a name listed once. It reports whether it settled the
// operand; membersOf's guesses are for when it did not.
func operandMembers(src Source, c *snippets, dot int, partial string) bool {
	op, ok := typescript.OperandAt(src.Store, src.Path, src.Text, dot, src.Read)
	if !ok {
		return false
	}
	what := "the operand"
	if xs, xe := identBefore(string(src.Text), dot); xs < xe {
		what = string(src.Text[xs:xe])
	}
	if op.Module != "" {
		moduleMembers(src, c, op.Module, what, partial)
		return true
	}
	var hits []index.SymbolHit
	seen := map[string]bool{}
	var names []string
	for _, ref := range op.Classes {
		syms, err := src.Store.Symbols(ref.Path)
		if err != nil {
			continue
		}
		class := ""
		for _, s := range syms {
			if classLike(s.Kind) && s.Selection.Start == ref.Pos {
				class = qualified(s)
				break
			}
		}
		if class == "" {
			continue
		}
		names = append(names, class)
		for _, s := range syms {
			if s.Container == class && !seen[s.Name] {
				seen[s.Name] = true
				hits = append(hits, index.SymbolHit{Path: ref.Path, Symbol: s})
			}
		}
	}
	if len(names) == 0 {
		return false
	}
	rankMembers(src, hits, partial)
	addHits(c, hits, fmt.Sprintf("members of %s's type %s", what, strings.Join(names, ", ")))
	return true
}
