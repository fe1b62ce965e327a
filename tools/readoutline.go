package tools

import (
	"context"
	"strings"

	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/tools/ledger"
	"github.com/parleyhq/parley/workspace"
)

// OutlineMinLines is the size from which a first read of a whole file
// shows its outline (function bodies elided) instead of its text.
const OutlineMinLines = 150

// outlineMinSaving is the share of lines an outline must elide to be
// worth the model's second look.
const outlineMinSaving = 0.25

// outlineUsable says whether an extraction that ended with the given
// Partial reason ("" for none) can back an outline: any but a cancelled
// one. A parse cut short (its iteration limit or budget reached, as
// gotreesitter's C++ grammar does on a third of Boost.Interprocess's
// large headers) has the symbols of the file up to the cut, and after it
// an outline elides only what it finds by text (function bodies after a
// function's header, the rest of long comments), never a declaration
// outside a body: the file's later declarations stay, and the first read
// still compresses instead of sending the whole file.
func outlineUsable(partial string) bool {
	return partial != "parse cancelled"
}

// readOutline returns the outline a first read of the whole file may show,
// or nil. The symbols come from the index's extractor run on content
// itself rather than from the store: the store may lag an editor buffer,
// and a file the outline is about to be shown for has to match it line
// for line.
func readOutline(ctx context.Context, env *Env, abs, shown string, content []byte, lines []string, p *readFileParams) *ledger.OutlineView {
	if p.Full || p.StartLine > 1 || (p.EndLine > 0 && p.EndLine < len(lines)) || len(lines) < OutlineMinLines ||
		env.Ledger.Seen(abs) {
		return nil
	}
	lang := outlineLanguage(abs, content)
	ex := extract.For(lang)
	if ex == nil {
		return nil
	}
	res, err := ex.Extract(ctx, abs, content, extract.Options{Budget: extract.BudgetFor(len(content))})
	if err != nil || !outlineUsable(res.Partial) {
		return nil
	}
	elided := ledger.OutlineElisions(lang, lines, res.Symbols)
	n := 0
	for _, r := range elided {
		n += r.End - r.Start + 1
	}
	if float64(n) < outlineMinSaving*float64(len(lines)) {
		return nil
	}
	ov := ledger.RenderOutline(shown, lines, elided)
	return &ov
}

// cppMarkers are constructs of C++ that C has not.
var cppMarkers = []string{"namespace ", "template <", "template<", "class ", "public:", "private:", "std::", "nullptr"}

// outlineLanguage is the language an outline parses the file as: a ".h"
// file, which workspace.DetectLanguage calls C, is parsed as C++ when its
// text uses C++. The C grammar reads a C++ class as one long function
// whose body the outline would elide, members and all.
func outlineLanguage(abs string, content []byte) string {
	lang := workspace.DetectLanguage(abs, content[:min(len(content), 512)])
	if lang != workspace.LangC || !strings.HasSuffix(strings.ToLower(abs), ".h") {
		return lang
	}
	text := string(content)
	for _, m := range cppMarkers {
		if strings.Contains(text, m) {
			return workspace.LangCPP
		}
	}
	return lang
}

// refuseElided refuses an edit whose old text (every occurrence of it in
// content) reaches into a function body elided from the outline the model
// read: it would be changing code it has not seen. nil when the edit may
// go ahead.
func refuseElided(env *Env, abs, shown string, content []byte, old string) *Result {
	if env.Ledger == nil || old == "" {
		return nil
	}
	text := string(content)
	line, from := 1, 0
	for {
		i := strings.Index(text[from:], old)
		if i < 0 {
			return nil
		}
		line += strings.Count(text[from:from+i], "\n")
		end := line + strings.Count(strings.TrimSuffix(old, "\n"), "\n")
		if gap, ok := env.Ledger.Elided(abs, content, line, end); ok {
			return Errorf("%s: refused: old_string (line %d) is inside lines %d–%d, which the outline you read elided; read them first (read_file start_line=%d end_line=%d) and copy old_string from what you see", shown, line, gap.Start, gap.End, gap.Start, gap.End)
		}
		line += strings.Count(old, "\n")
		from += i + len(old)
	}
}
