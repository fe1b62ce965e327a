package graph

import "testing"

func TestJavaScript(t *testing.T) {
	files := []File{
		src("web/src/app.ts", "typescript", "",
			"./util", "./util.js", "../lib", "./comp", "./styles.css", "./types", "./missing",
			"react", "@scope/pkg/sub", "node:fs", "fs", "@acme/ui/button", "@acme/ui", "@/store/cart", "@/store/missing", "~lib/x", "/abs", "../../../out"),
		src("web/src/util.ts", "typescript", ""),
		src("web/src/util.js", "javascript", ""), // compiled output next to the source
		src("web/src/comp.tsx", "tsx", ""),
		src("web/src/styles.css", "", ""),
		src("web/src/types.d.ts", "typescript", ""),
		src("web/src/store/cart.ts", "typescript", ""),
		src("web/lib/index.ts", "typescript", ""),
		src("web/old.js", "javascript", "", "./src/util", "./esm", "./common"),
		src("web/esm.mjs", "javascript", ""),
		src("web/common.cjs", "javascript", ""),
		src("packages/ui/src/index.ts", "typescript", ""),
		src("packages/ui/src/button.tsx", "tsx", ""),
		src("packages/core/lib/main.js", "javascript", ""),
		src("packages/core/lib/extra.js", "javascript", ""),
		src("packages/empty/README.md", "", ""),
		src("shared/lib/x.ts", "typescript", ""),
		src("other/a.js", "javascript", "", "@acme/core", "@acme/core/lib/extra", "@acme/empty", "@acme/ui/button"),
	}
	g := build(files, map[string]string{
		"web/tsconfig.json": `{
			// comments and trailing commas are allowed
			"extends": "./tsconfig.base",
			"compilerOptions": {
				"paths": {"@/*": ["./src/*"], "~lib/*": ["../shared/lib/*"],},
				/* "baseUrl": "nope" */
			},
		}`,
		"web/tsconfig.base.json":      `{"compilerOptions": {"baseUrl": "."}}`,
		"packages/ui/package.json":    `{"name": "@acme/ui", "main": "dist/index.js"}`,
		"packages/core/package.json":  `{"name": "@acme/core", "exports": {".": {"import": "./lib/main.js"}}}`,
		"packages/empty/package.json": `{"name": "@acme/empty"}`,
	})
	checkResolve(t, g, []rc{
		{from: "web/src/app.ts", imp: "./util", to: "web/src/util.ts"},
		{from: "web/src/app.ts", imp: "./util.js", to: "web/src/util.js"}, // the exact file exists
		{from: "web/src/app.ts", imp: "../lib", to: "web/lib/index.ts"},
		{from: "web/src/app.ts", imp: "./comp", to: "web/src/comp.tsx"},
		{from: "web/src/app.ts", imp: "./styles.css", to: "web/src/styles.css"},
		{from: "web/src/app.ts", imp: "./types", to: "web/src/types.d.ts"},
		{from: "web/src/app.ts", imp: "./missing"},
		{from: "web/src/app.ts", imp: "react", ext: true},
		{from: "web/src/app.ts", imp: "@scope/pkg/sub", ext: true},
		{from: "web/src/app.ts", imp: "node:fs", ext: true},
		{from: "web/src/app.ts", imp: "fs", ext: true},
		{from: "web/src/app.ts", imp: "@acme/ui/button", to: "packages/ui/src/button.tsx"},
		{from: "web/src/app.ts", imp: "@acme/ui", to: "packages/ui/src/index.ts"},
		{from: "web/src/app.ts", imp: "@/store/cart", to: "web/src/store/cart.ts"},
		{from: "web/src/app.ts", imp: "@/store/missing"}, // an alias: not external
		{from: "web/src/app.ts", imp: "~lib/x", to: "shared/lib/x.ts"},
		{from: "web/src/app.ts", imp: "/abs"},
		{from: "web/src/app.ts", imp: "../../../out"},
		// A .js importer prefers .js files.
		{from: "web/old.js", imp: "./src/util", to: "web/src/util.js"},
		{from: "web/old.js", imp: "./esm", to: "web/esm.mjs"},
		{from: "web/old.js", imp: "./common", to: "web/common.cjs"},
		{from: "other/a.js", imp: "@acme/core", to: "packages/core/lib/main.js"},
		{from: "other/a.js", imp: "@acme/core/lib/extra", to: "packages/core/lib/extra.js"},
		{from: "other/a.js", imp: "@acme/empty", to: "packages/empty", dir: true},
		{from: "other/a.js", imp: "@acme/ui/button", to: "packages/ui/src/button.tsx"},
	})
}

func TestTypeScriptJSExtensionMapsToSource(t *testing.T) {
	files := []File{
		src("src/a.ts", "typescript", "", "./b.js", "./c.js", "./d.mjs", "./x/index.js", "baseurl/thing"),
		src("src/b.ts", "typescript", ""),
		src("src/c.tsx", "tsx", ""),
		src("src/d.mts", "typescript", ""),
		src("src/x/index.ts", "typescript", ""),
		src("src/baseurl/thing.ts", "typescript", ""),
	}
	g := build(files, map[string]string{"tsconfig.json": `{"compilerOptions": {"baseUrl": "src"}}`})
	checkResolve(t, g, []rc{
		{from: "src/a.ts", imp: "./b.js", to: "src/b.ts"},
		{from: "src/a.ts", imp: "./c.js", to: "src/c.tsx"},
		{from: "src/a.ts", imp: "./d.mjs", to: "src/d.mts"},
		{from: "src/a.ts", imp: "./x/index.js", to: "src/x/index.ts"},
		{from: "src/a.ts", imp: "baseurl/thing", to: "src/baseurl/thing.ts"},
	})
}
