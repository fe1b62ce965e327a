package graph

import "testing"

func TestJava(t *testing.T) {
	files := []File{
		src("app/src/main/java/com/acme/app/Main.java", "java", "com.acme.app",
			"com.acme.util.Strings", "com.acme.util.*", "com.acme.util.Strings.join", "static com.acme.util.Strings.join",
			"com.acme.util.Strings.Inner", "com.acme.model.User", "java.util.List", "org.junit.Test",
			"com.acme.missing.Thing", "com.acme.util.Strings.*", "com.acme.kt.topLevelFun", "com.acme.kt.Widget"),
		src("lib/src/main/java/com/acme/util/Strings.java", "java", "com.acme.util"),
		src("lib/src/main/java/com/acme/util/Lists.java", "java", "com.acme.util"),
		src("lib/src/test/java/com/acme/util/StringsTest.java", "java", "com.acme.util", "com.acme.util.*"),
		// Kotlin: the directory need not match the package.
		src("model/User.kt", "kotlin", "com.acme.model", "com.acme.util.Strings"),
		src("kt/Helpers.kt", "kotlin", "com.acme.kt"),
		src("kt/Widget.kt", "kotlin", "com.acme.kt"),
		// Found by path only (no package recorded).
		src("legacy/com/acme/old/Old.java", "java", ""),
		src("legacy/Use.java", "java", "", "com.acme.old.Old"),
	}
	g := build(files, nil)
	const main = "app/src/main/java/com/acme/app/Main.java"
	checkResolve(t, g, []rc{
		{from: main, imp: "com.acme.util.Strings", to: "lib/src/main/java/com/acme/util/Strings.java"},
		{from: main, imp: "com.acme.util.*", to: "lib/src/main/java/com/acme/util", dir: true},
		{from: main, imp: "com.acme.util.Strings.join", to: "lib/src/main/java/com/acme/util/Strings.java"},
		{from: main, imp: "static com.acme.util.Strings.join", to: "lib/src/main/java/com/acme/util/Strings.java"},
		{from: main, imp: "com.acme.util.Strings.Inner", to: "lib/src/main/java/com/acme/util/Strings.java"},
		{from: main, imp: "com.acme.model.User", to: "model/User.kt"},
		{from: main, imp: "java.util.List", ext: true},
		{from: main, imp: "org.junit.Test", ext: true},
		{from: main, imp: "com.acme.missing.Thing"}, // a workspace namespace: not external
		{from: main, imp: "com.acme.util.Strings.*", to: "lib/src/main/java/com/acme/util/Strings.java"},
		{from: main, imp: "com.acme.kt.topLevelFun", to: "kt", dir: true},
		{from: main, imp: "com.acme.kt.Widget", to: "kt/Widget.kt"},
		// The package directory closest to the importer wins.
		{from: "lib/src/test/java/com/acme/util/StringsTest.java", imp: "com.acme.util.*", to: "lib/src/test/java/com/acme/util", dir: true},
		{from: "model/User.kt", imp: "com.acme.util.Strings", to: "lib/src/main/java/com/acme/util/Strings.java"},
		{from: "legacy/Use.java", imp: "com.acme.old.Old", to: "legacy/com/acme/old/Old.java"},
	})
	deps := g.Dependents("lib/src/main/java/com/acme/util/Lists.java")
	if len(deps) != 1 || deps[0].Import != "com.acme.util.*" {
		t.Errorf("Dependents(Lists.java) = %+v, want the package import", deps)
	}
	if deps := g.Dependents("lib/src/main/java/com/acme/util/Strings.java"); len(deps) != 7 {
		t.Errorf("Dependents(Strings.java) = %d edges, want 7: %+v", len(deps), deps)
	}
}

func TestCSharp(t *testing.T) {
	files := []File{
		src("App/Program.cs", "csharp", "Acme.App",
			"Acme.Core", "Acme.Split", "System.Text", "static Acme.Core.Helpers", "Json = Newtonsoft.Json",
			"Alias = Acme.Core", "Acme.Unknown", "global using Acme.Core"),
		src("Core/Helpers.cs", "csharp", "Acme.Core"),
		src("Core/Models.cs", "csharp", "Acme.Core"),
		src("Core/Other.cs", "csharp", "Acme.Other"),
		src("Split/A.cs", "csharp", "Acme.Split"),
		src("Split2/B.cs", "csharp", "Acme.Split"),
	}
	g := build(files, nil)
	checkResolve(t, g, []rc{
		{from: "App/Program.cs", imp: "Acme.Core", to: "Core", dir: true},
		{from: "App/Program.cs", imp: "Acme.Split", to: "Split/A.cs"}, // several dirs: first file
		{from: "App/Program.cs", imp: "System.Text", ext: true},
		{from: "App/Program.cs", imp: "static Acme.Core.Helpers", to: "Core/Helpers.cs"},
		{from: "App/Program.cs", imp: "Json = Newtonsoft.Json", ext: true},
		{from: "App/Program.cs", imp: "Alias = Acme.Core", to: "Core", dir: true},
		{from: "App/Program.cs", imp: "Acme.Unknown"},
		{from: "App/Program.cs", imp: "global using Acme.Core", to: "Core", dir: true},
	})
	if deps := g.Dependents("Core/Models.cs"); len(deps) != 3 {
		t.Errorf("Dependents(Core/Models.cs) = %+v, want the 3 namespace imports", deps)
	}
	if deps := g.Dependents("Core/Other.cs"); len(deps) != 0 {
		t.Errorf("Dependents(Core/Other.cs) = %+v, want none (other namespace)", deps)
	}
}
