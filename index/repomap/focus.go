package repomap

import (
	"slices"
	"strings"
)

// maxNamed bounds the files the conversation named that stay in the
// focus, most recent first: an old mention says less about today's task.
const maxNamed = 8

// Focus is one conversation's map: the focus it is personalised toward
// (files the user's messages name, directly or through the symbols they
// declare, and the documents open in the editor) and the text last
// rendered for it. Not safe for concurrent use (a session runs one turn
// at a time).
//
// The map sits in the system prompt, in front of the whole conversation,
// so a new map makes the provider re-read (and re-cache) every message
// after it: on a long session, one changed map costs as much as the
// conversation so far. Update therefore renders again only when the focus
// changes materially: a message or the editor brings a file that is
// neither in the focus already nor shown in the current map. A file the
// model can already see in the map gains little from moving up, and a
// closed document or a file that is no longer mentioned changes nothing:
// the cached prefix is worth more than a fresher ranking.
type Focus struct {
	m     *Mapper
	opts  Options // Tokens and Count; Focus is set per render
	named []string
	open  []string
	text  string
	shown map[string]bool
	built bool
}

// NewFocus returns the focus of a new conversation, rendering maps of m
// with the budget and counter of o (o.Focus is ignored).
func NewFocus(m *Mapper, o Options) *Focus {
	o.Focus = nil
	return &Focus{m: m, opts: o}
}

// Update takes the next user message and the store-relative paths of the
// documents open in the editor (nil outside an editor) and returns the
// map for the prompt; changed says it differs from the one Update last
// returned. On an error the last map is kept.
func (f *Focus) Update(msg string, open []string) (text string, changed bool, err error) {
	named := f.m.Mentioned(msg)
	open = slices.DeleteFunc(slices.Clone(open), func(p string) bool {
		_, ok := f.m.st.Header(p)
		return !ok // a file the index does not know cannot be focused
	})
	if f.built && !f.material(named, open) {
		return f.text, false, nil
	}
	for _, p := range slices.Backward(named) {
		f.named = slices.Insert(slices.DeleteFunc(f.named, func(q string) bool { return q == p }), 0, p)
	}
	f.named = f.named[:min(len(f.named), maxNamed)]
	f.open = open
	o := f.opts
	o.Focus = append(slices.Clone(f.named), f.open...)
	out, err := f.m.Build(o)
	if err != nil {
		return f.text, false, err
	}
	changed = !f.built || out != f.text
	f.text, f.built, f.shown = out, true, mapFiles(out)
	return out, changed, nil
}

// material says whether files brings one the focus and the map lack.
func (f *Focus) material(files ...[]string) bool {
	for _, fs := range files {
		for _, p := range fs {
			if !f.shown[p] && !slices.Contains(f.named, p) && !slices.Contains(f.open, p) {
				return true
			}
		}
	}
	return false
}

// mapFiles is the set of files a rendered map lists (its unindented
// "path:" lines).
func mapFiles(text string) map[string]bool {
	out := map[string]bool{}
	for l := range strings.Lines(text) {
		if !strings.HasPrefix(l, " ") {
			out[strings.TrimSuffix(strings.TrimSpace(l), ":")] = true
		}
	}
	return out
}
