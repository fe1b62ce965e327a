package graph

import "testing"

func TestRuby(t *testing.T) {
	files := []File{
		src("lib/app.rb", "ruby", "", "./app/models", "../config/boot", "./missing", "json", "app/version", "tool", "gems/x/helper"),
		src("lib/app/models.rb", "ruby", ""),
		src("lib/app/version.rb", "ruby", ""),
		src("config/boot.rb", "ruby", ""),
		src("tool.rb", "ruby", ""),
		src("gems/x/lib/gems/x/helper.rb", "ruby", ""),
	}
	g := build(files, nil)
	checkResolve(t, g, []rc{
		{from: "lib/app.rb", imp: "./app/models", to: "lib/app/models.rb"},
		{from: "lib/app.rb", imp: "../config/boot", to: "config/boot.rb"},
		{from: "lib/app.rb", imp: "./missing"},
		{from: "lib/app.rb", imp: "json", ext: true},
		{from: "lib/app.rb", imp: "app/version", to: "lib/app/version.rb"},
		{from: "lib/app.rb", imp: "tool", to: "tool.rb"},
		{from: "lib/app.rb", imp: "gems/x/helper", to: "gems/x/lib/gems/x/helper.rb"},
	})
}

func TestPHP(t *testing.T) {
	files := []File{
		src("public/index.php", "php", "",
			"../bootstrap.php", "./partials/header.php", "partials/footer.php", "config.php", "/inc/db.php",
			`App\Models\User`, `\App\Http\Controller`, `App\Services\Mailer`, `Vendor\Lib\Thing`,
			`function App\Support\helper`, `App\Models\Missing`, `Legacy\Util\Strings`),
		src("public/partials/header.php", "php", ""),
		src("public/partials/footer.php", "php", ""),
		src("public/inc/db.php", "php", ""),
		src("config.php", "php", ""),
		src("bootstrap.php", "php", ""),
		src("src/Models/User.php", "php", `App\Models`),
		src("src/Http/Controller.php", "php", `App\Http`),
		src("app/Services/Mailer.php", "php", ""), // PSR-4 only, no namespace recorded
		src("src/Support/helper.php", "php", `App\Support`),
		src("old/lib/Legacy/Util/Strings.php", "php", ""),
	}
	g := build(files, map[string]string{
		"composer.json": `{"autoload": {"psr-4": {"App\\Services\\": ["app/Services/"], "App\\": "src/"}}}`,
	})
	checkResolve(t, g, []rc{
		{from: "public/index.php", imp: "../bootstrap.php", to: "bootstrap.php"},
		{from: "public/index.php", imp: "./partials/header.php", to: "public/partials/header.php"},
		{from: "public/index.php", imp: "partials/footer.php", to: "public/partials/footer.php"},
		{from: "public/index.php", imp: "config.php", to: "config.php"}, // root-relative
		{from: "public/index.php", imp: "/inc/db.php", to: "public/inc/db.php"},
		{from: "public/index.php", imp: `App\Models\User`, to: "src/Models/User.php"},
		{from: "public/index.php", imp: `\App\Http\Controller`, to: "src/Http/Controller.php"},
		{from: "public/index.php", imp: `App\Services\Mailer`, to: "app/Services/Mailer.php"},
		{from: "public/index.php", imp: `Vendor\Lib\Thing`, ext: true},
		{from: "public/index.php", imp: `function App\Support\helper`, to: "src/Support/helper.php"},
		{from: "public/index.php", imp: `App\Models\Missing`},
		{from: "public/index.php", imp: `Legacy\Util\Strings`, to: "old/lib/Legacy/Util/Strings.php"},
	})
}

func TestLua(t *testing.T) {
	files := []File{
		src("init.lua", "lua", "", "core.util", "plugin", "string", "lpeg", "lua_mod", "core/util", "sibling", "core.nope"),
		src("core/util.lua", "lua", ""),
		src("plugin/init.lua", "lua", ""),
		src("lua/lua_mod.lua", "lua", ""),
		src("sub/a.lua", "lua", "", "sibling"),
		src("sub/sibling.lua", "lua", ""),
	}
	g := build(files, nil)
	checkResolve(t, g, []rc{
		{from: "init.lua", imp: "core.util", to: "core/util.lua"},
		{from: "init.lua", imp: "plugin", to: "plugin/init.lua"},
		{from: "init.lua", imp: "string", ext: true},
		{from: "init.lua", imp: "lpeg", ext: true},
		{from: "init.lua", imp: "lua_mod", to: "lua/lua_mod.lua"},
		{from: "init.lua", imp: "core/util", to: "core/util.lua"},
		{from: "init.lua", imp: "sibling", ext: true},
		{from: "init.lua", imp: "core.nope"},
		{from: "sub/a.lua", imp: "sibling", to: "sub/sibling.lua"},
	})
}

func TestBash(t *testing.T) {
	files := []File{
		src("scripts/run.sh", "bash", "", "./lib.sh", "lib.sh", "common.sh", "$DIR/lib.sh", "${BASH_SOURCE%/*}/../common.sh",
			"/etc/profile", "../missing.sh", `"./lib.sh"`, `$(dirname "$0")/lib.sh`, "$HOME"),
		src("scripts/lib.sh", "bash", ""),
		src("common.sh", "bash", ""),
	}
	g := build(files, nil)
	checkResolve(t, g, []rc{
		{from: "scripts/run.sh", imp: "./lib.sh", to: "scripts/lib.sh"},
		{from: "scripts/run.sh", imp: "lib.sh", to: "scripts/lib.sh"},
		{from: "scripts/run.sh", imp: "common.sh", to: "common.sh"},
		{from: "scripts/run.sh", imp: "$DIR/lib.sh", to: "scripts/lib.sh"},
		{from: "scripts/run.sh", imp: "${BASH_SOURCE%/*}/../common.sh", to: "common.sh"},
		{from: "scripts/run.sh", imp: "/etc/profile", ext: true},
		{from: "scripts/run.sh", imp: "../missing.sh"},
		{from: "scripts/run.sh", imp: `"./lib.sh"`, to: "scripts/lib.sh"},
		{from: "scripts/run.sh", imp: `$(dirname "$0")/lib.sh`, to: "scripts/lib.sh"},
		{from: "scripts/run.sh", imp: "$HOME"},
	})
}

func TestSwift(t *testing.T) {
	files := []File{
		src("Sources/App/main.swift", "swift", "", "Core", "Foundation", "@testable Core", "struct Core.Model"),
		src("Sources/Core/Model.swift", "swift", ""),
	}
	g := build(files, nil)
	checkResolve(t, g, []rc{
		{from: "Sources/App/main.swift", imp: "Core", to: "Sources/Core", dir: true},
		{from: "Sources/App/main.swift", imp: "Foundation", ext: true},
		{from: "Sources/App/main.swift", imp: "@testable Core", to: "Sources/Core", dir: true},
		{from: "Sources/App/main.swift", imp: "struct Core.Model", to: "Sources/Core", dir: true},
	})
}
