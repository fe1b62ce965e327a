package docs

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/ledongthuc/pdf"
)

// MaxPDFPages bounds the pages read from one PDF (a damaged page count
// could otherwise ask for billions).
const MaxPDFPages = 10000

// Page is the text of one PDF page.
type Page struct {
	N    int    `json:"page"`
	Text string `json:"text"`
}

// ExtractPDF returns the text of each page of a PDF that has any.
//
// github.com/ledongthuc/pdf is the reader: pure Go, maintained (a fork of
// rsc.io/pdf, which stopped in 2014, with text extraction added), and
// small. pdfcpu, the other maintained pure-Go library, processes PDFs
// (merge, split, validate) but extracts page content streams, not text.
// The reader reports some malformed input by panicking, so each call into
// it is guarded here: a damaged PDF is an error, never a crash.
func ExtractPDF(data []byte) (pages []Page, err error) {
	defer func() {
		if r := recover(); r != nil {
			pages, err = nil, fmt.Errorf("pdf: malformed document (%v)", r)
		}
	}()
	rd, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("pdf: %w", err)
	}
	// The page tree is walked here, not through the reader's Page(i),
	// which loops forever on a tree whose Kids or Parent links form a
	// cycle: this walk is bounded in depth and size.
	leaves, err := pageLeaves(rd.Trailer().Key("Root").Key("Pages"))
	if err != nil {
		return nil, err
	}
	for i, v := range leaves {
		if !parentChainEnds(v) {
			return nil, fmt.Errorf("pdf: page %d: its Parent links form a cycle", i+1)
		}
		text, err := pdf.Page{V: v}.GetPlainText(nil)
		if err != nil {
			return nil, fmt.Errorf("pdf: page %d: %w", i+1, err)
		}
		if text = strings.TrimSpace(text); text != "" {
			pages = append(pages, Page{N: i + 1, Text: text})
		}
	}
	return pages, nil
}

// maxTreeDepth bounds the page tree's depth (real trees are a few levels).
const maxTreeDepth = 64

// pageLeaves returns the page dictionaries of a page tree in order.
func pageLeaves(root pdf.Value) ([]pdf.Value, error) {
	var out []pdf.Value
	nodes := 0
	var walk func(v pdf.Value, depth int) error
	walk = func(v pdf.Value, depth int) error {
		nodes++
		if nodes > 2*MaxPDFPages || depth > maxTreeDepth {
			return fmt.Errorf("pdf: the page tree is too large, too deep or cyclic")
		}
		kids := v.Key("Kids")
		if v.Key("Type").Name() == "Page" || kids.IsNull() {
			if len(out) == MaxPDFPages {
				return fmt.Errorf("pdf: more than %d pages", MaxPDFPages)
			}
			out = append(out, v)
			return nil
		}
		for i := 0; i < kids.Len(); i++ {
			if err := walk(kids.Index(i), depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if root.IsNull() {
		return nil, fmt.Errorf("pdf: no page tree")
	}
	return out, walk(root, 0)
}

// parentChainEnds reports whether a page's Parent links end (the reader
// follows them to find inherited resources).
func parentChainEnds(v pdf.Value) bool {
	for range maxTreeDepth {
		if v = v.Key("Parent"); v.IsNull() {
			return true
		}
	}
	return false
}
