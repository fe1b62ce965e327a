package extract

import "testing"

func TestGoBuildConstraint(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"none", "package p\n", ""},
		{"canonical form", "// Copyright\n\n//go:build linux||(darwin &&  !cgo)\n\npackage p\n", "linux || (darwin && !cgo)"},
		{"after the package clause it is a comment", "package p\n\n//go:build linux\n", ""},
		{"legacy +build lines are not read", "// +build linux\n\npackage p\n", ""},
		{"unparsable", "//go:build linux &&\n\npackage p\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if res := extractGo("p/x.go", []byte(c.src), true); res.Build != c.want {
				t.Errorf("Build = %q, want %q", res.Build, c.want)
			}
		})
	}
}
