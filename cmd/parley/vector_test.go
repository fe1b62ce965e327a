package main

import (
	"os"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/parleyhq/parley/memory/docs/pdftest"
)

// mkPDF writes a PDF: mkpdf OUT PAGEFILE... makes one page of each text
// file (one line a text line), so scripts need no binary fixture.
func mkPDF(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: mkpdf OUT PAGEFILE...")
	}
	var pages [][]string
	for _, a := range args[1:] {
		pages = append(pages, strings.Split(strings.TrimSpace(ts.ReadFile(a)), "\n"))
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), pdftest.Make(pages), 0o644))
}
