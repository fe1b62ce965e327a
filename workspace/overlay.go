package workspace

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/cespare/xxhash/v2"
)

// Overlay is the editor's view of an open document: what the user sees,
// saved or not. Content must not be modified; changes make a new Overlay.
type Overlay struct {
	Path    string // as given to Open (the caller's key, e.g. a root-relative path)
	Version int32
	Content []byte
	Hash    uint64 // xxhash of Content, as the index hashes files
	// Saved is set when the content is known to equal the file on disk:
	// after Save, or after Open until the first change.
	Saved bool
}

// Range is a span in client coordinates (line, character in the
// negotiated encoding).
type Range struct {
	StartLine, StartChar uint32
	EndLine, EndChar     uint32
}

// Change is one LSP content change: Range nil replaces the whole text.
type Change struct {
	Range *Range
	Text  string
}

// ErrNotOpen is returned for changes to a document that is not open.
var ErrNotOpen = errors.New("document is not open")

// ErrStaleVersion is returned for a change whose version is not newer than
// the overlay's.
var ErrStaleVersion = errors.New("stale document version")

// ApplyChanges applies changes in order, each against the text the
// previous one produced, as LSP's incremental sync prescribes. Positions
// are converted with enc and clamped like any LSP position; a range that
// starts after it ends, or on a line past the end, is an error and leaves
// nothing applied.
func ApplyChanges(content []byte, changes []Change, enc Encoding) ([]byte, error) {
	for i, c := range changes {
		if c.Range == nil {
			content = []byte(c.Text)
			continue
		}
		lines := NewLines(content)
		start, err := lines.Offset(c.Range.StartLine, c.Range.StartChar, enc)
		if err != nil {
			return nil, fmt.Errorf("change %d start: %w", i, err)
		}
		end, err := lines.Offset(c.Range.EndLine, c.Range.EndChar, enc)
		if err != nil {
			return nil, fmt.Errorf("change %d end: %w", i, err)
		}
		if end < start {
			return nil, fmt.Errorf("change %d: range ends before it starts: %w", i, ErrPosition)
		}
		next := make([]byte, 0, len(content)-(end-start)+len(c.Text))
		next = append(next, content[:start]...)
		next = append(next, c.Text...)
		content = append(next, content[end:]...)
	}
	return content, nil
}

// Overlays holds the open documents. Safe for concurrent use; the
// Overlays returned are snapshots that later changes do not touch.
type Overlays struct {
	mu   sync.RWMutex
	docs map[string]*Overlay
}

// NewOverlays returns an empty set.
func NewOverlays() *Overlays { return &Overlays{docs: map[string]*Overlay{}} }

// Open records a document as the editor opened it, replacing any overlay
// already held for the path.
func (o *Overlays) Open(path string, version int32, content []byte) *Overlay {
	ov := &Overlay{Path: path, Version: version, Content: content, Hash: xxhash.Sum64(content), Saved: true}
	o.mu.Lock()
	o.docs[path] = ov
	o.mu.Unlock()
	return ov
}

// Change applies content changes that bring the document to version. The
// version must be newer than the overlay's; on any error the overlay is
// unchanged.
func (o *Overlays) Change(path string, version int32, changes []Change, enc Encoding) (*Overlay, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	old, ok := o.docs[path]
	if !ok {
		return nil, fmt.Errorf("%s: %w", path, ErrNotOpen)
	}
	if version <= old.Version {
		return nil, fmt.Errorf("%s: version %d after %d: %w", path, version, old.Version, ErrStaleVersion)
	}
	content, err := ApplyChanges(old.Content, changes, enc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	ov := &Overlay{Path: path, Version: version, Content: content, Hash: xxhash.Sum64(content)}
	o.docs[path] = ov
	return ov, nil
}

// Save marks the document saved. When the editor sends the saved text, it
// replaces the overlay's content (same version).
func (o *Overlays) Save(path string, text *string) (*Overlay, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	old, ok := o.docs[path]
	if !ok {
		return nil, fmt.Errorf("%s: %w", path, ErrNotOpen)
	}
	ov := *old
	ov.Saved = true
	if text != nil {
		ov.Content = []byte(*text)
		ov.Hash = xxhash.Sum64(ov.Content)
	}
	o.docs[path] = &ov
	return &ov, nil
}

// Close drops the overlay; the file on disk is the truth again.
func (o *Overlays) Close(path string) {
	o.mu.Lock()
	delete(o.docs, path)
	o.mu.Unlock()
}

// Get returns the overlay of an open document.
func (o *Overlays) Get(path string) (*Overlay, bool) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	ov, ok := o.docs[path]
	return ov, ok
}

// Unsaved lists the paths of open documents whose content may differ from
// the disk (changed since they were opened or saved), sorted.
func (o *Overlays) Unsaved() []string {
	o.mu.RLock()
	var out []string
	for p, ov := range o.docs {
		if !ov.Saved {
			out = append(out, p)
		}
	}
	o.mu.RUnlock()
	slices.Sort(out)
	return out
}

// Paths lists the paths of every open document, sorted.
func (o *Overlays) Paths() []string {
	o.mu.RLock()
	out := make([]string, 0, len(o.docs))
	for p := range o.docs {
		out = append(out, p)
	}
	o.mu.RUnlock()
	slices.Sort(out)
	return out
}
