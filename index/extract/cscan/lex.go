package cscan

import "github.com/parleyhq/parley/index/extract/internal/clex"

// The lexer is the C family's (index/extract/internal/clex), in its
// C mode.

type (
	tok     = clex.Tok
	comment = clex.Comment
)

const (
	tIdent = clex.Ident
	tNum   = clex.Num
	tStr   = clex.Str
	tPunct = clex.Punct
	tDir   = clex.Directive
	tEOL   = clex.EOL
)

// lex lexes src, or declines the file with the lexer's reason.
func lex(src []byte) ([]tok, []comment) {
	toks, comments, err := clex.Lex(src, clex.C)
	if err != nil {
		fail("%s", err)
	}
	return toks, comments
}
