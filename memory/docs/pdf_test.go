package docs

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/memory/docs/pdftest"
)

func TestExtractPDF(t *testing.T) {
	data := pdftest.Make([][]string{
		{"Database migrations run with make migrate.", "They must be reversible."},
		{},
		{"Release builds (tagged) come from the release branch."},
	})
	pages, err := ExtractPDF(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 2 || pages[0].N != 1 || pages[1].N != 3 {
		t.Fatalf("pages %+v", pages)
	}
	for _, want := range []string{"Database migrations run with make migrate.", "reversible"} {
		if !strings.Contains(pages[0].Text, want) {
			t.Errorf("page 1 %q lacks %q", pages[0].Text, want)
		}
	}
	if !strings.Contains(pages[1].Text, "Release builds (tagged) come from the release branch.") {
		t.Errorf("page 3 %q", pages[1].Text)
	}
}

func TestExtractPDFErrors(t *testing.T) {
	good := pdftest.Make([][]string{{"hello"}})
	for name, data := range map[string][]byte{
		"empty":     nil,
		"not a pdf": []byte("hello, world"),
		"truncated": good[:len(good)/2],
		"bad xref":  []byte(strings.Replace(string(good), "startxref\n", "startxref\n9", 1)),
	} {
		if _, err := ExtractPDF(data); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func FuzzExtractPDF(f *testing.F) {
	f.Add(pdftest.Make([][]string{{"hello world"}, {"second page"}}))
	f.Add([]byte("%PDF-1.4\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ExtractPDF(data) // must not panic or hang
	})
}

// TestExtractPDFCycles: page trees whose links loop are errors, not
// endless loops (the reader's own Page(i) never returns on them).
func TestExtractPDFCycles(t *testing.T) {
	data := string(pdftest.Make([][]string{{"hello"}}))
	for name, s := range map[string]string{
		"kids":   strings.Replace(data, "/Kids [4 0 R]", "/Kids [2 0 R]", 1),
		"parent": strings.Replace(strings.Replace(data, "/Parent 2 0 R", "/Parent 4 0 R", 1), "/Type /Page ", "/Type /Page /Kids null ", 1),
	} {
		if _, err := ExtractPDF([]byte(s)); err == nil {
			t.Errorf("%s cycle: no error", name)
		}
	}
}
