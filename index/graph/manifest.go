package graph

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/tailscale/hujson"
	"golang.org/x/mod/modfile"
)

// The manifest readers below are thin wrappers over the formats' own
// parsers; each returns "" (or an error) for a file it cannot read, and
// never panics on workspace content (FuzzManifests).

// goModulePath returns the module path a go.mod declares, or "". name is
// the file's path, for modfile's messages.
//
// modfile.ParseLax understands the whole syntax (quoted paths holding
// "//", block forms, comments); it also fails on errors unrelated to the
// module line (a malformed require), where cmd/go's own lenient reader
// modfile.ModulePath still finds the path, so that is the fallback.
func goModulePath(name string, data []byte) string {
	if f, err := modfile.ParseLax(name, data, nil); err == nil {
		if f.Module == nil {
			return ""
		}
		return f.Module.Mod.Path
	}
	return modfile.ModulePath(data)
}

// goWorkUses returns the directories a go.work file's use directives list,
// as written (relative to the go.work's directory, or absolute).
func goWorkUses(name string, data []byte) ([]string, error) {
	wf, err := modfile.ParseWork(name, data, nil)
	if err != nil {
		return nil, err
	}
	dirs := make([]string, 0, len(wf.Use))
	for _, u := range wf.Use {
		dirs = append(dirs, u.Path)
	}
	return dirs, nil
}

// utf8BOM is stripped before JSONC parsing: TypeScript accepts it, JSON
// parsers (hujson included) do not.
var utf8BOM = []byte("\ufeff")

// decodeJSONC unmarshals a JSON-with-comments file (tsconfig.json,
// jsconfig.json: comments and trailing commas) into v. Two things
// TypeScript accepts and hujson does not are adjusted first: a leading
// byte order mark, and a line comment ending the file without a newline.
func decodeJSONC(data []byte, v any) error {
	data = bytes.TrimPrefix(data, utf8BOM)
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data[:len(data):len(data)], '\n')
	}
	std, err := hujson.Standardize(data)
	if err != nil {
		return fmt.Errorf("jsonc: %w", err)
	}
	return json.Unmarshal(std, v)
}

// cargoCrateName returns the library name of a Cargo.toml ([lib] name,
// else [package] name) with dashes turned into underscores, as Rust code
// refers to the crate; "" when the file is not valid TOML or names none.
func cargoCrateName(data []byte) string {
	var m struct {
		Package struct {
			Name string `toml:"name"`
		} `toml:"package"`
		Lib struct {
			Name string `toml:"name"`
		} `toml:"lib"`
	}
	if _, err := toml.Decode(string(data), &m); err != nil {
		return ""
	}
	name := m.Lib.Name
	if name == "" {
		name = m.Package.Name
	}
	return strings.ReplaceAll(name, "-", "_")
}
