package extract

import (
	ts "github.com/odvcencio/gotreesitter"
	"github.com/odvcencio/gotreesitter/grammars"
)

// When a C file's first pass ends with ERROR nodes, gotreesitter parses
// the whole file again, up to three more times, to lose them
// (retryFullParseWithTokenSource). For C that buys almost nothing and costs
// most of the time: over 475 C sources and headers on this machine (zstd,
// openssl, GLES, Python's and Go's test programs), the reparses took 2.4x
// the CPU of first passes alone (169 s against 69 s) and found 7 symbols
// and 36 references a first pass missed, while files whose reparses ran
// out of budget lost 15,709 symbols and 58,551 references the first pass
// had (GLES3/gl32.h: none instead of 1,684). In a cold index of GOROOT/src,
// regexp/testdata/testregex.c alone reparsed for ~0.25 s until the cut.
// C++ is another matter: on 150 C++ headers the reparses recover 8,047 of
// 15,029 symbols, so they stay; Java's are unmeasured here (no corpus) and
// stay too. Small files keep them as well (softMinSize): they cost little.
//
// gotreesitter has no switch for the reparses, but it runs them only when
// the token source can be reset. cNoRetry hides the C token source's Reset
// behind a field of the same name, which a method promoted from the
// embedded source cannot win against, and keeps every other method the
// parser looks for (SkipToByte, SetParserState, SetGLRStates, Close, ...).
type cNoRetry struct {
	*grammars.CTokenSource
	Reset struct{} // see above: not a method, so no reparses
}

// tokenSource is the token source c's grammar parses src from.
func (c *compiled) tokenSource(src []byte) ts.TokenSource {
	tokens := c.factory(src, c.lang)
	if c.spec.grammar != "c" || len(src) < softMinSize {
		return tokens
	}
	if t, ok := tokens.(*grammars.CTokenSource); ok {
		return cNoRetry{CTokenSource: t}
	}
	return tokens
}
