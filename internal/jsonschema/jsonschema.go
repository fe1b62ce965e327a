// Package jsonschema derives the JSON Schema of a tool's input from its
// params struct by reflection, and decodes inputs strictly against the same
// description, so the schema the model sees and the checks its calls meet
// cannot drift. It knows nothing of tools beyond that: any struct whose
// fields follow the rules below works.
//
// Field rules:
//   - the property name is the json tag name; `json:"-"` fields are skipped;
//   - a field is required unless its json tag has omitempty or omitzero;
//   - `jsonschema:"..."` holds comma-separated key=value items: enum=a|b|c,
//     minimum=N, maximum=N, and description=TEXT, which must come last and
//     takes the rest of the tag (so descriptions may contain commas);
//   - supported kinds: string, bool, integers, floats, slices, pointers
//     (optional values) and nested structs; every object schema has
//     additionalProperties false.
//
// Contracts: For, Of and Decode are safe for concurrent use (derived
// schemas are cached per type). Decode never panics on any input and
// reports every mistake as an *InputError (FuzzDecodeInput).
package jsonschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// InputError is a model mistake found while decoding tool input. Its
// message names the offending field; tools report it as an IsError result.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return "invalid input: " + e.Msg }

func inputErrorf(format string, args ...any) *InputError {
	return &InputError{Msg: fmt.Sprintf(format, args...)}
}

// schemaField is one property of a params struct.
type schemaField struct {
	name     string
	index    int
	required bool
	desc     string
	enum     []string
	min, max *float64
}

// structInfo caches the compiled fields of a params struct type.
type structInfo struct {
	fields []schemaField
	byName map[string]int
}

var structCache sync.Map // reflect.Type -> *structInfo or error

func infoOf(t reflect.Type) (*structInfo, error) {
	if v, ok := structCache.Load(t); ok {
		if err, isErr := v.(error); isErr {
			return nil, err
		}
		return v.(*structInfo), nil
	}
	info, err := compileStruct(t)
	if err != nil {
		structCache.Store(t, err)
		return nil, err
	}
	structCache.Store(t, info)
	return info, nil
}

func compileStruct(t reflect.Type) (*structInfo, error) {
	info := &structInfo{byName: map[string]int{}}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		if f.Anonymous {
			return nil, fmt.Errorf("schema %s.%s: embedded fields are not supported", t.Name(), f.Name)
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" && opts == "" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		sf := schemaField{name: name, index: i, required: !hasOpt(opts, "omitempty") && !hasOpt(opts, "omitzero")}
		if err := parseSchemaTag(f.Tag.Get("jsonschema"), &sf); err != nil {
			return nil, fmt.Errorf("schema %s.%s: %w", t.Name(), f.Name, err)
		}
		if _, dup := info.byName[name]; dup {
			return nil, fmt.Errorf("schema %s: duplicate property %q", t.Name(), name)
		}
		info.byName[name] = len(info.fields)
		info.fields = append(info.fields, sf)
	}
	return info, nil
}

func hasOpt(opts, want string) bool {
	for o := range strings.SplitSeq(opts, ",") {
		if o == want {
			return true
		}
	}
	return false
}

// parseSchemaTag reads key=value items; description takes the rest.
func parseSchemaTag(tag string, sf *schemaField) error {
	for tag != "" {
		if d, ok := strings.CutPrefix(tag, "description="); ok {
			sf.desc = d
			return nil
		}
		item, rest, _ := strings.Cut(tag, ",")
		tag = rest
		key, val, ok := strings.Cut(item, "=")
		if !ok {
			return fmt.Errorf("jsonschema tag item %q: want key=value", item)
		}
		switch key {
		case "enum":
			sf.enum = strings.Split(val, "|")
		case "minimum", "maximum":
			n, err := strconv.ParseFloat(val, 64)
			if err != nil {
				return fmt.Errorf("jsonschema %s=%q: %w", key, val, err)
			}
			if key == "minimum" {
				sf.min = &n
			} else {
				sf.max = &n
			}
		default:
			return fmt.Errorf("jsonschema tag: unknown key %q", key)
		}
	}
	return nil
}

// Of derives the JSON Schema of a params struct type.
func Of(t reflect.Type) (json.RawMessage, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("schema of %s: params must be a struct", t)
	}
	var b bytes.Buffer
	if err := writeType(&b, t, nil); err != nil {
		return nil, err
	}
	return json.RawMessage(b.Bytes()), nil
}

var schemaCache sync.Map // reflect.Type -> json.RawMessage

// For derives the schema of P (once per type). It panics on an unsupported
// params type, a programming error that the tools' tests catch for every
// tool. Callers must not modify the returned bytes.
func For[P any]() json.RawMessage {
	t := reflect.TypeFor[P]()
	if s, ok := schemaCache.Load(t); ok {
		return s.(json.RawMessage)
	}
	s, err := Of(t)
	if err != nil {
		panic(err)
	}
	schemaCache.Store(t, s)
	return s
}

// writeType writes the schema of t; f carries the annotations of the field
// holding it (nil at top level and for slice items).
func writeType(b *bytes.Buffer, t reflect.Type, f *schemaField) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	b.WriteByte('{')
	typ, err := jsonType(t)
	if err != nil {
		return err
	}
	writeKV(b, "type", typ)
	if f != nil {
		if f.desc != "" {
			b.WriteByte(',')
			writeKV(b, "description", f.desc)
		}
		if f.enum != nil {
			b.WriteString(`,"enum":`)
			writeJSON(b, f.enum)
		}
		if f.min != nil {
			b.WriteString(`,"minimum":`)
			writeJSON(b, *f.min)
		}
		if f.max != nil {
			b.WriteString(`,"maximum":`)
			writeJSON(b, *f.max)
		}
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		b.WriteString(`,"items":`)
		if err := writeType(b, t.Elem(), nil); err != nil {
			return err
		}
	case reflect.Struct:
		if err := writeObject(b, t); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

func writeObject(b *bytes.Buffer, t reflect.Type) error {
	info, err := infoOf(t)
	if err != nil {
		return err
	}
	b.WriteString(`,"properties":{`)
	var required []string
	for i := range info.fields {
		sf := &info.fields[i]
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSON(b, sf.name)
		b.WriteByte(':')
		if err := writeType(b, t.Field(sf.index).Type, sf); err != nil {
			return err
		}
		if sf.required {
			required = append(required, sf.name)
		}
	}
	b.WriteByte('}')
	if len(required) > 0 {
		b.WriteString(`,"required":`)
		writeJSON(b, required)
	}
	b.WriteString(`,"additionalProperties":false`)
	return nil
}

func jsonType(t reflect.Type) (string, error) {
	switch t.Kind() {
	case reflect.String:
		return "string", nil
	case reflect.Bool:
		return "boolean", nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer", nil
	case reflect.Float32, reflect.Float64:
		return "number", nil
	case reflect.Slice, reflect.Array:
		return "array", nil
	case reflect.Struct:
		return "object", nil
	}
	return "", fmt.Errorf("schema: unsupported type %s", t)
}

func writeKV(b *bytes.Buffer, k, v string) {
	writeJSON(b, k)
	b.WriteByte(':')
	writeJSON(b, v)
}

// writeJSON marshals values that cannot fail to marshal (strings, string
// slices, float64s produced by ParseFloat).
func writeJSON(b *bytes.Buffer, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("schema: marshal %T: %v", v, err))
	}
	b.Write(data)
}

// Decode strictly decodes a tool's JSON input into a params struct:
// the input must be an object, unknown fields, missing required fields,
// nulls for required fields, wrong JSON types, values outside an enum or
// range, and fractional numbers for integer fields are all rejected with an
// *InputError that names the field (dotted path, "edits[1].old_string").
// Empty input and a top-level null count as {}, so the required fields are
// still checked.
func Decode[P any](input json.RawMessage) (P, error) {
	var p P
	t := reflect.TypeFor[P]()
	if trimmed := bytes.TrimSpace(input); len(trimmed) == 0 || string(trimmed) == "null" {
		input = json.RawMessage("{}")
	}
	if !json.Valid(input) {
		return p, inputErrorf("arguments are not valid JSON")
	}
	if err := checkValue(input, t, "", nil); err != nil {
		return p, err
	}
	if err := json.Unmarshal(input, &p); err != nil {
		// checkValue accepted it, so this is an overflow or similar.
		return p, inputErrorf("%v", err)
	}
	return p, nil
}

// checkValue validates raw JSON against the Go type t. path names the value
// for messages ("" is the top-level object).
func checkValue(raw json.RawMessage, t reflect.Type, path string, f *schemaField) error {
	raw = bytes.TrimSpace(raw)
	if string(raw) == "null" {
		return nil // the caller decides whether null is allowed
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	want, err := jsonType(t)
	if err != nil {
		return err
	}
	got := rawKind(raw)
	if got != want && !(want == "number" && got == "integer") {
		return inputErrorf("%s must be %s, got %s", fieldName(path), article(want), article(got))
	}
	switch t.Kind() {
	case reflect.Struct:
		return checkObject(raw, t, path)
	case reflect.Slice, reflect.Array:
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return inputErrorf("%s: %v", fieldName(path), err)
		}
		for i, it := range items {
			p := fmt.Sprintf("%s[%d]", path, i)
			if string(bytes.TrimSpace(it)) == "null" {
				return inputErrorf("%s must not be null", p)
			}
			if err := checkValue(it, t.Elem(), p, nil); err != nil {
				return err
			}
		}
	}
	return checkConstraints(raw, t, path, f)
}

func checkObject(raw json.RawMessage, t reflect.Type, path string) error {
	info, err := infoOf(t)
	if err != nil {
		return err
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return inputErrorf("%s: %v", fieldName(path), err)
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys) // deterministic messages
	for _, k := range keys {
		if _, ok := info.byName[k]; !ok {
			return inputErrorf("unknown field %q (allowed: %s)", joinPath(path, k), info.names())
		}
	}
	for i := range info.fields {
		sf := &info.fields[i]
		v, ok := obj[sf.name]
		p := joinPath(path, sf.name)
		if !ok || string(bytes.TrimSpace(v)) == "null" {
			if sf.required {
				return inputErrorf("missing required field %q", p)
			}
			continue
		}
		if err := checkValue(v, t.Field(sf.index).Type, p, sf); err != nil {
			return err
		}
	}
	return nil
}

func (s *structInfo) names() string {
	names := make([]string, len(s.fields))
	for i := range s.fields {
		names[i] = s.fields[i].name
	}
	return strings.Join(names, ", ")
}

func checkConstraints(raw json.RawMessage, t reflect.Type, path string, f *schemaField) error {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if _, err := strconv.ParseInt(string(raw), 10, 64); err != nil {
			return inputErrorf("%s must be an integer, got %s", fieldName(path), raw)
		}
	}
	if f == nil {
		return nil
	}
	if f.enum != nil {
		var s string
		if json.Unmarshal(raw, &s) == nil && !slices.Contains(f.enum, s) {
			return inputErrorf("%s must be one of %s, got %q", fieldName(path), strings.Join(f.enum, ", "), s)
		}
	}
	if f.min != nil || f.max != nil {
		n, err := strconv.ParseFloat(string(raw), 64)
		if err == nil && f.min != nil && n < *f.min {
			return inputErrorf("%s must be at least %g, got %s", fieldName(path), *f.min, raw)
		}
		if err == nil && f.max != nil && n > *f.max {
			return inputErrorf("%s must be at most %g, got %s", fieldName(path), *f.max, raw)
		}
	}
	return nil
}

// rawKind names the JSON type of a valid JSON value.
func rawKind(raw []byte) string {
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	if bytes.ContainsAny(raw, ".eE") {
		return "number"
	}
	return "integer"
}

func article(kind string) string {
	switch kind {
	case "object", "array", "integer":
		return "an " + kind
	}
	return "a " + kind
}

func fieldName(path string) string {
	if path == "" {
		return "the arguments"
	}
	return fmt.Sprintf("field %q", path)
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
