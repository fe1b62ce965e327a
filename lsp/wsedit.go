package lsp

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/aymanbagabas/go-udiff"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/tools"
	"github.com/parleyhq/parley/workspace"
)

// This file turns the agent's file changes (tools.FileChange) into one
// WorkspaceEdit for workspace/applyEdit. It knows nothing of JSON-RPC: the
// caller (agentEditor) checks staleness, sends the edit and reads the reply.

// errUnsupportedEdit reports a change the client's workspace-edit
// capabilities cannot express; it is an outcome for the model, not a
// failure of the server.
var errUnsupportedEdit = errors.New("the editor cannot apply this change")

// editAnnotation is the one change annotation of a confirmed edit.
const editAnnotation protocol.ChangeAnnotationIdentifier = "parley.edit"

// editTarget is what the editor holds for a changed path.
type editTarget struct {
	open    bool  // the document is open in the editor
	version int32 // its version when open
}

// editCaps are the client's workspace-edit capabilities.
type editCaps struct {
	documentChanges        bool // workspace.workspaceEdit.documentChanges
	create, rename, delete bool // workspace.workspaceEdit.resourceOperations
	annotations            bool // workspace.workspaceEdit.changeAnnotationSupport
}

// buildWorkspaceEdit builds one WorkspaceEdit for changes. label names
// the change for the editor's undo history / confirmation UI. Open
// documents get TextDocumentEdits with their version; documents that are not
// open get version null. confirm asks the client to confirm (change
// annotation with needsConfirmation) when it supports annotations.
// An error (wrapping errUnsupportedEdit) means the client cannot express a
// change (e.g. a create without resourceOperations "create").
//
// Changes go out in the order given. A modify whose Old equals New is
// skipped; when nothing is left the edit is empty (never nil without an
// error) and the caller need not send it. Text edits are computed against
// Old, so for an open document the caller must have checked that Old is
// its content (agentEditor.stale). The version sent is the one the change
// was computed against (c.Version, equal to the target's version after that
// check), so a document that moves on in between makes the client refuse
// the edit instead of applying it to other text; a change read from disk
// (tools.DiskVersion) of a document open now gets the target's version.
// Without documentChanges the edit uses the changes map: plain TextEdits,
// no versions, no resource operations and no annotations. targets may be
// nil (nothing is open).
func buildWorkspaceEdit(label string, changes []tools.FileChange, enc workspace.Encoding, caps editCaps, targets func(abs string) editTarget, confirm bool) (*protocol.WorkspaceEdit, error) {
	if targets == nil {
		targets = func(string) editTarget { return editTarget{} }
	}
	var ann protocol.ChangeAnnotationIdentifier // "" (omitted) unless confirming
	if confirm && caps.annotations && caps.documentChanges {
		ann = editAnnotation
	}
	edit := &protocol.WorkspaceEdit{}
	var summary []string // one line per file, for the annotation's description
	for _, c := range changes {
		if !filepath.IsAbs(c.Path) || (c.Op == tools.OpRename && !filepath.IsAbs(c.NewPath)) {
			return nil, fmt.Errorf("workspace edit: path %q is not absolute", c.Path)
		}
		u := uri.File(c.Path)
		switch c.Op {
		case tools.OpModify:
			edits := minimalEdits(c.Old, c.New, enc)
			if len(edits) == 0 {
				continue
			}
			if !caps.documentChanges {
				if _, dup := edit.Changes[u]; dup {
					return nil, fmt.Errorf("%w: two changes to %s in one edit need workspace.workspaceEdit.documentChanges", errUnsupportedEdit, c.Path)
				}
				if edit.Changes == nil {
					edit.Changes = map[uri.URI][]protocol.TextEdit{}
				}
				edit.Changes[u] = edits
			} else {
				edit.DocumentChanges = append(edit.DocumentChanges,
					textDocumentEdit(u, sentVersion(c, targets(c.Path)), edits, ann))
			}
			summary = append(summary, "edit "+c.Path)

		case tools.OpCreate:
			if err := resourceOpOK(caps, caps.create, "create", c.Path); err != nil {
				return nil, err
			}
			edit.DocumentChanges = append(edit.DocumentChanges, &protocol.CreateFile{
				ResourceOperation: protocol.ResourceOperation{Kind: "create", AnnotationID: ann},
				Kind:              "create",
				URI:               u,
				Options:           &protocol.CreateFileOptions{Overwrite: ptr(false), IgnoreIfExists: ptr(false)},
			})
			if len(c.New) > 0 {
				insert := []protocol.TextEdit{{NewText: string(c.New)}} // at 0:0
				edit.DocumentChanges = append(edit.DocumentChanges, textDocumentEdit(u, nil, insert, ann))
			}
			summary = append(summary, "create "+c.Path)

		case tools.OpDelete:
			if err := resourceOpOK(caps, caps.delete, "delete", c.Path); err != nil {
				return nil, err
			}
			edit.DocumentChanges = append(edit.DocumentChanges, &protocol.DeleteFile{
				ResourceOperation: protocol.ResourceOperation{Kind: "delete", AnnotationID: ann},
				Kind:              "delete",
				URI:               u,
			})
			summary = append(summary, "delete "+c.Path)

		case tools.OpRename:
			if err := resourceOpOK(caps, caps.rename, "rename", c.Path); err != nil {
				return nil, err
			}
			edit.DocumentChanges = append(edit.DocumentChanges, &protocol.RenameFile{
				ResourceOperation: protocol.ResourceOperation{Kind: "rename", AnnotationID: ann},
				Kind:              "rename",
				OldURI:            u,
				NewURI:            uri.File(c.NewPath),
				Options:           &protocol.RenameFileOptions{Overwrite: ptr(false)},
			})
			summary = append(summary, "rename "+c.Path+" → "+c.NewPath)

		default:
			return nil, fmt.Errorf("workspace edit: unknown change kind %d for %s", c.Op, c.Path)
		}
	}
	if ann != "" && len(summary) > 0 {
		if label == "" {
			label = "Parley edit"
		}
		edit.ChangeAnnotations = map[protocol.ChangeAnnotationIdentifier]protocol.ChangeAnnotation{
			ann: {
				Label:             label,
				NeedsConfirmation: ptr(true),
				Description:       ptr(strings.Join(summary, "; ")),
			},
		}
	}
	return edit, nil
}

// resourceOpOK reports whether the client can take the resource operation
// kind (it lists it in resourceOperations, which needs documentChanges).
func resourceOpOK(caps editCaps, listed bool, kind, path string) error {
	if !caps.documentChanges {
		return fmt.Errorf("%w: cannot %s %s: the client does not support workspace.workspaceEdit.documentChanges", errUnsupportedEdit, kind, path)
	}
	if !listed {
		return fmt.Errorf("%w: cannot %s %s: the client does not list %q in workspace.workspaceEdit.resourceOperations", errUnsupportedEdit, kind, path, kind)
	}
	return nil
}

// sentVersion is the version a TextDocumentEdit for c carries: nil (null)
// for a document that is not open, else the version c was computed
// against, or the open version when c was read from disk.
func sentVersion(c tools.FileChange, t editTarget) *int32 {
	if !t.open {
		return nil
	}
	v := t.version
	if c.Version != tools.DiskVersion {
		v = c.Version
	}
	return &v
}

// textDocumentEdit wraps edits for one document, annotated when ann is set.
func textDocumentEdit(u uri.URI, version *int32, edits []protocol.TextEdit, ann protocol.ChangeAnnotationIdentifier) *protocol.TextDocumentEdit {
	elems := make([]protocol.TextDocumentEditElement, len(edits))
	for i := range edits {
		if ann != "" {
			elems[i] = &protocol.AnnotatedTextEdit{TextEdit: edits[i], AnnotationID: ann}
		} else {
			elems[i] = &edits[i]
		}
	}
	return &protocol.TextDocumentEdit{
		TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{
			TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u},
			Version:                version,
		},
		Edits: elems,
	}
}

// minimalEdits returns non-overlapping TextEdits, in document order, that
// turn old into new; positions are in enc and computed against old.
//
// gopls's line diff (go-udiff) finds the changed line hunks; each hunk
// then shrinks to the characters that differ by dropping the common prefix
// and suffix. Cuts fall only where both texts are at a character boundary
// (never inside a UTF-8 sequence, so NewText stays whole characters) and
// where workspace.Lines maps the offset in old to a position and back
// exactly: not between the '\r' and '\n' of a line break, and not before a
// stray UTF-8 continuation byte (which Lines folds into the preceding
// character).
func minimalEdits(old, new []byte, enc workspace.Encoding) []protocol.TextEdit {
	if bytes.Equal(old, new) {
		return nil
	}
	hunks := lineHunks(old, new)
	lines := workspace.NewLines(old)
	edits := make([]protocol.TextEdit, 0, len(hunks))
	for _, h := range hunks {
		h = shrink(old, h)
		if h.start == h.end && len(h.text) == 0 {
			continue
		}
		// Offsets lie within old by construction, so Position cannot fail.
		sl, sc, _ := lines.Position(h.start, enc)
		el, ec, _ := lines.Position(h.end, enc)
		edits = append(edits, protocol.TextEdit{
			Range: protocol.Range{
				Start: protocol.Position{Line: sl, Character: sc},
				End:   protocol.Position{Line: el, Character: ec},
			},
			NewText: string(h.text),
		})
	}
	return edits
}

// hunk replaces old[start:end] with text.
type hunk struct {
	start, end int
	text       []byte
}

// lineHunks returns the changed line ranges of old, in order, that turn
// old into new; adjacent ranges are merged.
//
// go-udiff (gopls's diff) bounds its LCS search, so a diff costs linear
// time and memory in the file's size however many lines differ; past the
// bound (some 50 changed spots) it returns a coarse hunk spanning the
// rest. Such hunks are diffed again, which finds the next spots, until a
// hunk no longer splits or the work reaches refineFactor times the size
// of the texts: heavily changed files still get small edits, and the cost
// stays linear.
func lineHunks(old, new []byte) []hunk {
	r := refiner{budget: refineFactor * (len(old) + len(new))}
	r.diff(0, string(old), string(new))
	return r.hunks
}

// refineFactor bounds the bytes lineHunks diffs, in multiples of the
// bytes of both texts.
const refineFactor = 8

type refiner struct {
	budget int
	hunks  []hunk
}

// diff appends the hunks that turn a, which starts at offset base of old,
// into b. a and b start and end at line boundaries.
func (r *refiner) diff(base int, a, b string) {
	r.budget -= len(a) + len(b)
	for _, e := range udiff.Lines(a, b) {
		del := a[e.Start:e.End]
		smaller := len(del) < len(a) || len(e.New) < len(b) // so the recursion ends
		if r.budget > 0 && smaller && strings.Count(del, "\n") > 1 && strings.Count(e.New, "\n") > 1 {
			r.diff(base+e.Start, del, e.New)
			continue
		}
		r.add(hunk{base + e.Start, base + e.End, []byte(e.New)})
	}
}

// add appends h, merging it into the previous hunk when they touch.
func (r *refiner) add(h hunk) {
	if n := len(r.hunks); n > 0 && r.hunks[n-1].end == h.start {
		r.hunks[n-1].end = h.end
		r.hunks[n-1].text = append(r.hunks[n-1].text, h.text...)
		return
	}
	r.hunks = append(r.hunks, h)
}

// shrink narrows h by the longest common prefix and suffix of
// old[h.start:h.end] and h.text whose cuts are valid in both (see
// minimalEdits). h's own bounds are line starts or len(old), always valid.
func shrink(old []byte, h hunk) hunk {
	a, b := old[h.start:h.end], h.text
	n := min(len(a), len(b))
	p := 0
	for p < n && a[p] == b[p] {
		p++
	}
	for p > 0 && !(oldCut(old, h.start+p) && textCut(b, p)) {
		p--
	}
	n -= p
	q := 0
	for q < n && a[len(a)-1-q] == b[len(b)-1-q] {
		q++
	}
	for q > 0 && !(oldCut(old, h.end-q) && textCut(b, len(b)-q)) {
		q--
	}
	return hunk{h.start + p, h.end - q, b[p : len(b)-q]}
}

// oldCut reports whether offset o of text is a position workspace.Lines
// converts exactly (Offset(Position(o)) == o) in every encoding.
func oldCut(text []byte, o int) bool {
	switch {
	case o <= 0 || o >= len(text) || text[o-1] == '\n':
		return true // document start or end, or a line start
	case text[o] == '\n' && text[o-1] == '\r':
		return false // inside a CRLF terminator
	}
	return utf8.RuneStart(text[o])
}

// textCut reports whether cutting text at i keeps UTF-8 sequences whole.
func textCut(text []byte, i int) bool {
	return i <= 0 || i >= len(text) || utf8.RuneStart(text[i])
}
