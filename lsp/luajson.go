package lsp

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
)

// Lua has one table type, so a Lua client cannot tell an empty object
// from an empty array: Neovim encodes an empty table as [] unless the code
// uses vim.empty_dict(). A user's `init_options = {}` or `agent = {}`
// would then fail to decode. The params the server decodes itself
// (initializationOptions, settings, parley/ methods, command arguments)
// go through luaObjects first, which reads [] as {} wherever the Go type
// expects an object, and only there: an empty list stays a list.

// maxLuaDepth bounds the nesting luaObjects follows; deeper input is left
// to the decoder, which has its own limit.
const maxLuaDepth = 1000

// luaObjects returns data with every empty array that stands where t (a
// struct or map, through pointers) expects a JSON object replaced by {}.
// Types that decode themselves (json.Unmarshaler, the protocol package's
// decoders, json.RawMessage) are left alone: their shape is theirs to
// decide. Input that is not valid JSON comes back unchanged for the
// decoder to report.
func luaObjects(data []byte, t reflect.Type) []byte {
	if !hasEmptyArray(data) {
		return data
	}
	w := luaWalker{dec: json.NewDecoder(bytes.NewReader(data))}
	if err := w.value(t, 0); err != nil || len(w.spans) == 0 {
		return data
	}
	if _, err := w.dec.Token(); err == nil {
		return data // more than one value: not ours to fix
	}
	out := make([]byte, 0, len(data))
	at := int64(0)
	for _, s := range w.spans {
		out = append(out, data[at:s[0]]...)
		out = append(out, "{}"...)
		at = s[1]
	}
	return append(out, data[at:]...)
}

// luaObjectsFor is luaObjects for the type of *T.
func luaObjectsFor[T any](data []byte) []byte {
	return luaObjects(data, reflect.TypeFor[T]())
}

// hasEmptyArray reports whether data may hold an empty array: a '['
// followed by blanks and ']' (possibly inside a string; the walk decides).
func hasEmptyArray(data []byte) bool {
	for i := 0; i < len(data); i++ {
		if data[i] != '[' {
			continue
		}
		j := i + 1
		for j < len(data) && isJSONSpace(data[j]) {
			j++
		}
		if j < len(data) && data[j] == ']' {
			return true
		}
	}
	return false
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// luaWalker reads one JSON value token by token alongside its Go type and
// records the byte spans of the empty arrays to replace.
type luaWalker struct {
	dec   *json.Decoder
	spans [][2]int64
}

var errTooDeep = errors.New("too deeply nested")

// value consumes one value whose Go type is t (nil: unknown).
func (w *luaWalker) value(t reflect.Type, depth int) error {
	if depth > maxLuaDepth {
		return errTooDeep
	}
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	t = luaShape(t)
	switch tok {
	case json.Delim('['):
		open := w.dec.InputOffset() - 1
		if !w.dec.More() {
			if _, err := w.dec.Token(); err != nil {
				return err
			}
			if t != nil && (t.Kind() == reflect.Struct || t.Kind() == reflect.Map) {
				w.spans = append(w.spans, [2]int64{open, w.dec.InputOffset()})
			}
			return nil
		}
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for w.dec.More() {
			if err := w.value(elem, depth+1); err != nil {
				return err
			}
		}
		_, err := w.dec.Token()
		return err
	case json.Delim('{'):
		for w.dec.More() {
			key, err := w.dec.Token()
			if err != nil {
				return err
			}
			name, _ := key.(string)
			if err := w.value(memberType(t, name), depth+1); err != nil {
				return err
			}
		}
		_, err := w.dec.Token()
		return err
	}
	return nil // a scalar
}

// luaShape dereferences pointers and returns nil for types whose JSON
// shape luaObjects does not know: interfaces and types with their own
// decoding.
func luaShape(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() == reflect.Interface {
		return nil
	}
	p := reflect.PointerTo(t)
	for _, m := range []string{"UnmarshalJSON", "UnmarshalJSONFrom", "UnmarshalText"} {
		if _, ok := p.MethodByName(m); ok {
			return nil
		}
	}
	return t
}

// memberType is the type of key's value in an object of type t: a map's
// element, or the struct field encoding/json would fill (exact name
// first, then case-insensitively).
func memberType(t reflect.Type, key string) reflect.Type {
	if t == nil {
		return nil
	}
	switch t.Kind() {
	case reflect.Map:
		return t.Elem()
	case reflect.Struct:
	default:
		return nil
	}
	var fold reflect.Type
	for _, f := range reflect.VisibleFields(t) {
		name, ok := jsonName(f)
		if !ok {
			continue
		}
		if name == key {
			return f.Type
		}
		if fold == nil && strings.EqualFold(name, key) {
			fold = f.Type
		}
	}
	return fold
}

// jsonName is the member name of a struct field, ok false for fields
// encoding/json ignores or flattens (untagged embedded structs, whose
// fields VisibleFields lists on their own).
func jsonName(f reflect.StructField) (string, bool) {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	name, _, _ := strings.Cut(tag, ",")
	if f.Anonymous && name == "" {
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct {
			return "", false
		}
	}
	if !f.IsExported() {
		return "", false
	}
	if name == "" {
		name = f.Name
	}
	return name, true
}
