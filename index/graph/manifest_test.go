package graph

import (
	"reflect"
	"testing"
)

// The cases the hand-written parsers these functions replaced got wrong are
// marked "was wrong".

func TestGoModulePath(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"plain", "module example.com/m\n\ngo 1.22\n", "example.com/m"},
		{"comments", "// header comment\nmodule example.com/m // trailing\n", "example.com/m"},
		{"quoted", "module \"example.com/quoted\"\n", "example.com/quoted"},
		{"raw quoted", "module `example.com/raw`\n", "example.com/raw"},
		{"block", "module (\n\t// c\n\texample.com/block\n)\n", "example.com/block"},
		{"crlf", "module example.com/m\r\ngo 1.22\r\n", "example.com/m"},
		{"std", "module std\n", "std"},
		// was wrong: the comment stripper cut the quoted path at "//".
		{"slashes in quotes", "module \"example.com/a//b\" // c\n", "example.com/a//b"},
		// was wrong: a replaced module named "module" inside a replace
		// block was taken for the module line.
		{"replace block first", "replace (\n\tmodule => ./m\n)\nmodule example.com/real\n", "example.com/real"},
		// A broken requirement elsewhere does not hide the module path.
		{"broken require", "module example.com/m\nrequire example.com/x\n", "example.com/m"},
		{"not a directive", "modulex foo\n", ""},
		{"no module", "go 1.22\n", ""},
		{"empty", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := goModulePath("go.mod", []byte(c.in)); got != c.want {
				t.Errorf("goModulePath(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestDecodeJSONC(t *testing.T) {
	type cfg struct {
		A string `json:"a"`
		B []int  `json:"b"`
		C struct {
			D string `json:"d"`
		} `json:"c"`
	}
	for _, c := range []struct {
		name, in string
		want     cfg
		err      bool
	}{
		{name: "plain", in: `{"a": "x", "b": [1]}`, want: cfg{A: "x", B: []int{1}}},
		{name: "comments inside strings", in: `{"a": "x // not a comment /* nor this */"}`,
			want: cfg{A: "x // not a comment /* nor this */"}},
		{name: "escaped quote then comment marker", in: `{"a": "q\"//", /* c */ "b": [2]}`,
			want: cfg{A: `q"//`, B: []int{2}}},
		{name: "trailing commas", in: "{\"b\": [1, 2,], \"c\": {\"d\": \"e\",},\n}", want: cfg{B: []int{1, 2}, C: struct {
			D string `json:"d"`
		}{"e"}}},
		{name: "trailing comma before comment", in: "{\"b\": [1, // one\n],}", want: cfg{B: []int{1}}},
		{name: "line comment at end of input", in: `{"a": "x"} // done`, want: cfg{A: "x"}},
		// was wrong: a UTF-8 byte order mark made the file unreadable.
		{name: "byte order mark", in: "\ufeff{\"a\": \"bom\"}", want: cfg{A: "bom"}},
		// was accepted as if the comment ran to the end.
		{name: "unterminated comment", in: `{"a": "x"} /* open`, err: true},
		{name: "unterminated string", in: `{"a": "x}`, err: true},
		{name: "double comma", in: `{"b": [1,,]}`, err: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got cfg
			err := decodeJSONC([]byte(c.in), &got)
			if (err != nil) != c.err {
				t.Fatalf("decodeJSONC(%q) error = %v, want error %v", c.in, err, c.err)
			}
			if err == nil && !reflect.DeepEqual(got, c.want) {
				t.Errorf("decodeJSONC(%q) = %+v, want %+v", c.in, got, c.want)
			}
		})
	}
}

func TestCargoCrateName(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"package", "[package]\nname = \"my-crate\"\n", "my_crate"},
		{"lib wins", "[package]\nname = \"pkg\"\n[lib]\nname = \"libname\"\n", "libname"},
		{"other sections", "[package]\nname = \"acme-core\" # comment\n\n[dependencies]\nname = \"ignored\"\n", "acme_core"},
		{"workspace only", "[workspace]\nmembers = [\"a\"]\n", ""},
		{"empty", "", ""},
		// was wrong: literal (single-quoted) strings came back quoted.
		{"literal string", "[package]\nname = 'lit-name'\n", "lit_name"},
		// was wrong: a quote in a trailing comment was taken for the
		// string's end.
		{"quote in comment", "[package]\nname = \"real\" # not \"this\"\n", "real"},
		// was wrong: a comment after a table header became part of its name.
		{"comment after header", "[package] # the crate\nname = \"hdr\"\n", "hdr"},
		// was wrong: dotted keys and inline tables were not read.
		{"dotted key", "package.name = \"dotted\"\n", "dotted"},
		{"inline table", "package = { name = \"inline\", version = \"0.1.0\" }\n", "inline"},
		{"inline lib table", "[package]\nname = \"p\"\nlib = { name = \"nope\" }\n[lib]\nname = \"l\"\n", "l"},
		// was wrong: lines inside a multi-line string were read as tables
		// and keys.
		{"multi-line string", "[package]\nname = \"p\"\ndescription = \"\"\"\n[lib]\nname = \"fake\"\n\"\"\"\n", "p"},
		{"invalid toml", "[package\nname = \"x\"\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := cargoCrateName([]byte(c.in)); got != c.want {
				t.Errorf("cargoCrateName(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}
