package graph

import "testing"

func TestPython(t *testing.T) {
	files := []File{
		src("app/__init__.py", "python", ""),
		src("app/main.py", "python", "",
			"app.models.user", "app.models", "app.models.user.User", "app.util", ".util", "..top",
			".", "...toofar", "os.path", "requests", "app.attr", "app.models.nothere.deeper", "nsp.mod", "nsp", "mylib.core"),
		src("app/util.py", "python", ""),
		src("app/models/__init__.py", "python", ""),
		src("app/models/user.py", "python", "", "..util", ".", "..", ".user", "app.models"),
		src("top.py", "python", ""),
		src("nsp/mod.py", "python", ""), // namespace package: no __init__.py
		src("src/mylib/__init__.py", "python", ""),
		src("src/mylib/core.py", "python", "", "mylib", "mylib.core.thing", ".core"),
		src("scripts/run.py", "python", "", "helper", "app.util", "stubbed"),
		src("scripts/helper.py", "python", ""),
		src("scripts/stubbed.pyi", "python", ""),
	}
	g := build(files, nil)
	checkResolve(t, g, []rc{
		{from: "app/main.py", imp: "app.models.user", to: "app/models/user.py"},
		{from: "app/main.py", imp: "app.models", to: "app/models/__init__.py"},
		// from app.models.user import User: the attribute is dropped.
		{from: "app/main.py", imp: "app.models.user.User", to: "app/models/user.py"},
		{from: "app/main.py", imp: "app.util", to: "app/util.py"},
		{from: "app/main.py", imp: ".util", to: "app/util.py"},
		{from: "app/main.py", imp: "..top", to: "top.py"},
		{from: "app/main.py", imp: ".", to: "app/__init__.py"},
		{from: "app/main.py", imp: "...toofar"},
		{from: "app/main.py", imp: "os.path", ext: true},
		{from: "app/main.py", imp: "requests", ext: true},
		{from: "app/main.py", imp: "app.models.nothere.deeper"},       // workspace package: not external
		{from: "app/main.py", imp: "app.attr", to: "app/__init__.py"}, // from app import attr
		{from: "app/main.py", imp: "nsp.mod", to: "nsp/mod.py"},
		{from: "app/main.py", imp: "nsp", to: "nsp", dir: true},
		{from: "app/main.py", imp: "mylib.core", to: "src/mylib/core.py"}, // src/ root
		{from: "app/models/user.py", imp: "..util", to: "app/util.py"},
		{from: "app/models/user.py", imp: ".", to: "app/models/__init__.py"},
		{from: "app/models/user.py", imp: "..", to: "app/__init__.py"},
		{from: "app/models/user.py", imp: ".user", to: "app/models/user.py"},
		{from: "app/models/user.py", imp: "app.models", to: "app/models/__init__.py"},
		{from: "src/mylib/core.py", imp: "mylib", to: "src/mylib/__init__.py"},
		{from: "src/mylib/core.py", imp: "mylib.core.thing", to: "src/mylib/core.py"},
		{from: "src/mylib/core.py", imp: ".core", to: "src/mylib/core.py"},
		// A script's own directory is on sys.path.
		{from: "scripts/run.py", imp: "helper", to: "scripts/helper.py"},
		{from: "scripts/run.py", imp: "app.util", to: "app/util.py"},
		{from: "scripts/run.py", imp: "stubbed", to: "scripts/stubbed.pyi"},
	})
}

func TestPythonPackageShadowing(t *testing.T) {
	// Inside a package, "import json" is the standard library even when the
	// package has a json.py (no implicit relative imports in Python 3).
	files := []File{
		src("pkg/__init__.py", "python", ""),
		src("pkg/json.py", "python", ""),
		src("pkg/mod.py", "python", "", "json", ".json"),
	}
	g := build(files, nil)
	checkResolve(t, g, []rc{
		{from: "pkg/mod.py", imp: "json", ext: true},
		{from: "pkg/mod.py", imp: ".json", to: "pkg/json.py"},
	})
}
