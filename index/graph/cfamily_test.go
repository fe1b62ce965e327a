package graph

import "testing"

func TestCInclude(t *testing.T) {
	files := []File{
		src("src/main.c", "c", "", "util.h", "net/conn.h", "config.h", "../include/api.h",
			"stdio.h", "sys/types.h", "vector", "generated.h", "common/log.h", "/usr/include/x.h"),
		src("src/util.h", "c", ""),
		src("src/net/conn.h", "c", ""),
		src("config.h", "c", ""),
		src("include/api.h", "c", ""),
		src("include/common/log.h", "c", ""),
		src("third/common/log.h", "c", ""),
		src("lib/a/b.cpp", "cpp", "", "common/log.h", "b.hpp", "deep/x.h"),
		src("lib/a/b.hpp", "cpp", ""),
		src("lib/a/deep/x.h", "cpp", ""),
		src("lib/common/log.h", "cpp", ""),
		src("stdio.h", "c", ""), // a workspace header shadows the system one
	}
	g := build(files, nil)
	checkResolve(t, g, []rc{
		{from: "src/main.c", imp: "util.h", to: "src/util.h"},
		{from: "src/main.c", imp: "net/conn.h", to: "src/net/conn.h"},
		{from: "src/main.c", imp: "config.h", to: "config.h"}, // root-relative
		{from: "src/main.c", imp: "../include/api.h", to: "include/api.h"},
		{from: "src/main.c", imp: "stdio.h", to: "stdio.h"},
		{from: "src/main.c", imp: "sys/types.h", ext: true},
		{from: "src/main.c", imp: "vector", ext: true},
		{from: "src/main.c", imp: "generated.h"}, // unknown: not called external
		// Suffix match; among equally close files, include/ dirs win.
		{from: "src/main.c", imp: "common/log.h", to: "include/common/log.h"},
		{from: "src/main.c", imp: "/usr/include/x.h", ext: true},
		// Suffix match prefers the candidate closest to the includer.
		{from: "lib/a/b.cpp", imp: "common/log.h", to: "lib/common/log.h"},
		{from: "lib/a/b.cpp", imp: "b.hpp", to: "lib/a/b.hpp"},
		{from: "lib/a/b.cpp", imp: "deep/x.h", to: "lib/a/deep/x.h"},
	})
}

func TestClosest(t *testing.T) {
	cands := []string{"x/y/z/h.h", "a/b/h.h", "a/h.h", "a/b/c/d/h.h"}
	for _, c := range []struct{ from, want string }{
		{"a/b/c/f.c", "a/b/c/d/h.h"},
		{"a/b/e/f.c", "a/b/h.h"},
		{"a/b/c/d/f.c", "a/b/c/d/h.h"},
		{"q/f.c", "a/h.h"},
		{"x/f.c", "x/y/z/h.h"},
	} {
		if got := closest(c.from, cands); got != c.want {
			t.Errorf("closest(%s) = %s, want %s", c.from, got, c.want)
		}
	}
	if closest("a.c", nil) != "" {
		t.Error("closest of nothing")
	}
}
