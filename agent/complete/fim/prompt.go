package fim

import (
	"fmt"
	"strings"
)

// comment is how a language comments out one line: Open before the text,
// Close (block-comment languages only) after it.
type comment struct{ Open, Close string }

// lineComments maps a language, as workspace.Language names it, to its
// comment. This is the one table of comment syntax in parley's completion.
var lineComments = map[string]comment{
	"go": {"//", ""}, "javascript": {"//", ""}, "typescript": {"//", ""}, "tsx": {"//", ""},
	"java": {"//", ""}, "rust": {"//", ""}, "c": {"//", ""}, "cpp": {"//", ""}, "csharp": {"//", ""},
	"kotlin": {"//", ""}, "swift": {"//", ""}, "php": {"//", ""}, "scala": {"//", ""},
	"dart": {"//", ""}, "zig": {"//", ""}, "groovy": {"//", ""}, "proto": {"//", ""},
	"objc": {"//", ""}, "objcpp": {"//", ""}, "graphql": {"#", ""}, "scss": {"//", ""},
	"less": {"//", ""}, "json": {"//", ""}, "vue": {"//", ""}, "svelte": {"//", ""},
	"python": {"#", ""}, "ruby": {"#", ""}, "bash": {"#", ""}, "perl": {"#", ""},
	"r": {"#", ""}, "yaml": {"#", ""}, "toml": {"#", ""}, "makefile": {"#", ""},
	"dockerfile": {"#", ""}, "starlark": {"#", ""}, "cmake": {"#", ""}, "elixir": {"#", ""},
	"powershell": {"#", ""}, "hcl": {"#", ""}, "conf": {"#", ""}, "gomod": {"//", ""},
	"lua": {"--", ""}, "sql": {"--", ""}, "haskell": {"--", ""},
	"erlang": {"%", ""}, "latex": {"%", ""}, "clojure": {";;", ""}, "ini": {";", ""},
	"assembly": {";", ""}, "batch": {"REM", ""},
	"html": {"<!--", "-->"}, "xml": {"<!--", "-->"}, "markdown": {"<!--", "-->"},
	"css": {"/*", "*/"},
}

// commentFor is language's comment; unknown languages get "//".
func commentFor(language string) comment {
	if c, ok := lineComments[strings.ToLower(language)]; ok {
		return c
	}
	return comment{"//", ""}
}

// line comments out one line (an empty line becomes the bare marker).
func (c comment) line(text string) string {
	s := c.Open
	if text != "" {
		s += " " + text
	}
	if c.Close != "" {
		s += " " + c.Close
	}
	return s
}

// header is a snippet's title: its path, lines and why it was chosen.
func header(s Snippet) string {
	h := s.Path
	var notes []string
	if s.StartLine > 0 && s.EndLine >= s.StartLine {
		notes = append(notes, fmt.Sprintf("lines %d-%d", s.StartLine, s.EndLine))
	}
	if s.Why != "" {
		notes = append(notes, s.Why)
	}
	if len(notes) > 0 {
		h += " (" + strings.Join(notes, ", ") + ")"
	}
	return h
}

// withContext is the prompt of the FIM formats that have no field for
// context (all but llama.cpp): each snippet as a commented file section
// in the edited file's language - a "Path:" header line, then the
// snippet's lines each commented - then, when there was context, a
// "Path:" line for the edited file, then the prefix. This is the
// convention Continue and Tabby use, which code models have seen.
func withContext(r Request) string {
	if len(r.Context) == 0 {
		return r.Prefix
	}
	c := commentFor(r.Language)
	var b strings.Builder
	for _, s := range r.Context {
		b.WriteString(c.line("Path: " + header(s)))
		b.WriteByte('\n')
		for l := range strings.SplitSeq(strings.TrimRight(s.Text, "\n"), "\n") {
			b.WriteString(c.line(strings.TrimRight(l, "\r")))
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	if r.Path != "" {
		b.WriteString(c.line("Path: " + r.Path))
		b.WriteByte('\n')
	}
	b.WriteString(r.Prefix)
	return b.String()
}

// maxTokens is r's bound, DefaultMaxTokens when unset.
func maxTokens(r Request) int {
	if r.MaxTokens > 0 {
		return r.MaxTokens
	}
	return DefaultMaxTokens
}

// stops is r's stop sequences, "\n" first when r is single-line, without
// empties or repeats, at most limit of them (0: no limit).
func stops(r Request, limit int) []string {
	var out []string
	add := func(s string) {
		for _, o := range out {
			if o == s {
				return
			}
		}
		if s != "" && (limit == 0 || len(out) < limit) {
			out = append(out, s)
		}
	}
	if !r.Multiline {
		add("\n")
	}
	for _, s := range r.Stop {
		add(s)
	}
	return out
}

// endMarkers are end-of-text tokens some servers leave in the text.
var endMarkers = []string{"<|endoftext|>", "<EOT>", "<|file_separator|>", "<|fim_pad|>", "<|end▁of▁sentence|>", "</s>"}

// finish is the completion text from a model's answer: cut at an
// end-of-text token, at r's stop sequences (a server may not have
// honoured them) and, when r is single-line, at the first line break.
func finish(r Request, text string) string {
	for _, m := range endMarkers {
		if i := strings.Index(text, m); i >= 0 {
			text = text[:i]
		}
	}
	for _, s := range stops(r, 0) {
		if i := strings.Index(text, s); i >= 0 {
			text = text[:i]
		}
	}
	if !r.Multiline {
		if i := strings.IndexAny(text, "\r\n"); i >= 0 {
			text = text[:i]
		}
	}
	return text
}
