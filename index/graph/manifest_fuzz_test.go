package graph

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzManifests feeds arbitrary bytes to every manifest reader: none may
// panic, JSONC must accept whatever plain JSON accepts, and a crate name
// is always in its underscored form.
func FuzzManifests(f *testing.F) {
	for _, s := range []string{
		"module example.com/m\n",
		"module (\n\t\"example.com/q//x\"\n)\n",
		"go 1.22\nuse (\n\t./a\n\t../b\n)\n",
		"{\"compilerOptions\": {\"paths\": {\"@/*\": [\"src/*\"],},}} // c",
		"\ufeff{\"a\": 1}",
		"[package]\nname = 'my-crate'\n[lib]\nname = \"x\" # c\n",
		"package = { name = \"inline\" }\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		goModulePath("go.mod", data)
		goWorkUses("go.work", data)
		var v any
		jsoncErr := decodeJSONC(append([]byte(nil), data...), &v)
		if json.Valid(data) && jsoncErr != nil {
			t.Errorf("decodeJSONC rejects valid JSON %q: %v", data, jsoncErr)
		}
		if name := cargoCrateName(data); strings.Contains(name, "-") {
			t.Errorf("cargoCrateName(%q) = %q, has a dash", data, name)
		}
	})
}
