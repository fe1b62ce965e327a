package graph

import "testing"

func TestRust(t *testing.T) {
	files := []File{
		src("core/src/lib.rs", "rust", "", "net", "util", "std::fmt", "crate::net::conn::Conn", "serde::Serialize",
			"crate::util::{a, b}", "self::net", "missing", "core::mem", "crate::nope::X"),
		src("core/src/net/mod.rs", "rust", "", "conn", "super::util::helper", "self::conn::Conn", "crate::util", "conn::Conn"),
		src("core/src/net/conn.rs", "rust", "", "super::super::util", "super::*", "super", "crate", "super::super::super::x"),
		src("core/src/util.rs", "rust", "", "inner", "crate::util::inner::deep::f", "alloc::vec::Vec"),
		src("core/src/util/inner.rs", "rust", "", "deep"),
		src("core/src/util/inner/deep.rs", "rust", ""),
		src("core/src/bin/tool.rs", "rust", "", "acme_core::net::conn", "acme_core", "helpers", "crate::helpers"),
		src("core/src/bin/helpers.rs", "rust", ""),
		src("core/tests/it.rs", "rust", "", "acme_core::util", "common"),
		src("core/tests/common/mod.rs", "rust", ""),
		src("app/src/main.rs", "rust", "", "acme_core::net::Thing", "cli", "cli::args::parse", "tokio::main"),
		src("app/src/cli.rs", "rust", ""),
	}
	g := build(files, map[string]string{
		"core/Cargo.toml": "[package]\nname = \"acme-core\" # comment\nversion = \"0.1.0\"\n\n[dependencies]\nname = \"ignored\"\n",
		"app/Cargo.toml":  "[package]\nname = \"app\"\n",
	})
	checkResolve(t, g, []rc{
		{from: "core/src/lib.rs", imp: "net", to: "core/src/net/mod.rs"},
		{from: "core/src/lib.rs", imp: "util", to: "core/src/util.rs"},
		{from: "core/src/lib.rs", imp: "std::fmt", ext: true},
		{from: "core/src/lib.rs", imp: "crate::net::conn::Conn", to: "core/src/net/conn.rs"},
		{from: "core/src/lib.rs", imp: "serde::Serialize", ext: true},
		{from: "core/src/lib.rs", imp: "crate::util::{a, b}", to: "core/src/util.rs"},
		{from: "core/src/lib.rs", imp: "self::net", to: "core/src/net/mod.rs"},
		{from: "core/src/lib.rs", imp: "missing", ext: true}, // no module file: an extern crate
		{from: "core/src/lib.rs", imp: "core::mem", ext: true},
		// Unknown module under crate: falls back to the crate root.
		{from: "core/src/lib.rs", imp: "crate::nope::X", to: "core/src/lib.rs"},
		{from: "core/src/net/mod.rs", imp: "conn", to: "core/src/net/conn.rs"},
		{from: "core/src/net/mod.rs", imp: "super::util::helper", to: "core/src/util.rs"},
		{from: "core/src/net/mod.rs", imp: "self::conn::Conn", to: "core/src/net/conn.rs"},
		{from: "core/src/net/mod.rs", imp: "crate::util", to: "core/src/util.rs"},
		{from: "core/src/net/mod.rs", imp: "conn::Conn", to: "core/src/net/conn.rs"}, // uniform paths
		{from: "core/src/net/conn.rs", imp: "super::super::util", to: "core/src/util.rs"},
		{from: "core/src/net/conn.rs", imp: "super::*", to: "core/src/net/mod.rs"},
		{from: "core/src/net/conn.rs", imp: "super", to: "core/src/net/mod.rs"},
		{from: "core/src/net/conn.rs", imp: "crate", to: "core/src/lib.rs"},
		{from: "core/src/net/conn.rs", imp: "super::super::super::x"},
		// Non-mod.rs module files own a directory named after them.
		{from: "core/src/util.rs", imp: "inner", to: "core/src/util/inner.rs"},
		{from: "core/src/util.rs", imp: "crate::util::inner::deep::f", to: "core/src/util/inner/deep.rs"},
		{from: "core/src/util.rs", imp: "alloc::vec::Vec", ext: true},
		{from: "core/src/util/inner.rs", imp: "deep", to: "core/src/util/inner/deep.rs"},
		// Binaries and integration tests are crate roots of their own and
		// reach the library through its (underscored) crate name.
		{from: "core/src/bin/tool.rs", imp: "acme_core::net::conn", to: "core/src/net/conn.rs"},
		{from: "core/src/bin/tool.rs", imp: "acme_core", to: "core/src/lib.rs"},
		{from: "core/src/bin/tool.rs", imp: "helpers", to: "core/src/bin/helpers.rs"},
		{from: "core/src/bin/tool.rs", imp: "crate::helpers", to: "core/src/bin/helpers.rs"},
		{from: "core/tests/it.rs", imp: "acme_core::util", to: "core/src/util.rs"},
		{from: "core/tests/it.rs", imp: "common", to: "core/tests/common/mod.rs"},
		{from: "app/src/main.rs", imp: "acme_core::net::Thing", to: "core/src/net/mod.rs"},
		{from: "app/src/main.rs", imp: "cli", to: "app/src/cli.rs"},
		{from: "app/src/main.rs", imp: "cli::args::parse", to: "app/src/cli.rs"},
		{from: "app/src/main.rs", imp: "tokio::main", ext: true},
	})
}

func TestRustWithoutCargo(t *testing.T) {
	files := []File{
		src("main.rs", "rust", "", "a", "crate::a::b"),
		src("a.rs", "rust", "", "b", "super::a"),
		src("a/b.rs", "rust", ""),
	}
	g := build(files, nil)
	checkResolve(t, g, []rc{
		{from: "main.rs", imp: "a", to: "a.rs"},
		{from: "main.rs", imp: "crate::a::b", to: "a/b.rs"},
		{from: "a.rs", imp: "b", to: "a/b.rs"},
		{from: "a.rs", imp: "super::a", to: "a.rs"},
	})
}
