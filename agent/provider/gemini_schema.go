package provider

import (
	"encoding/json"
	"slices"
)

// geminiSchemaKeys are the fields of the API's Schema object, a subset of
// OpenAPI 3.0, with the JSON each holds. The API parses a declaration as
// a protocol buffer, so any other keyword (additionalProperties, which
// internal/jsonschema puts on every object, $schema, const, oneOf, ...
// from MCP servers), or a value of another kind, fails the whole request
// with "Invalid JSON payload received".
var geminiSchemaKeys = map[string]schemaValue{
	"type": valString, "format": valString, "title": valString, "description": valString,
	"pattern": valString, "nullable": valBool,
	"maxItems": valNumber, "minItems": valNumber, "minProperties": valNumber, "maxProperties": valNumber,
	"minLength": valNumber, "maxLength": valNumber, "minimum": valNumber, "maximum": valNumber,
	"enum": valStrings, "required": valStrings, "propertyOrdering": valStrings,
	"example": valAny, "default": valAny,
	"properties": valAny, "items": valAny, "anyOf": valAny, // converted in geminiChildren
}

// schemaValue is the kind of JSON a Schema field holds.
type schemaValue uint8

const (
	valAny schemaValue = iota
	valString
	valBool
	valNumber
	valStrings // a non-empty array of strings
)

func (k schemaValue) fits(v any) bool {
	switch k {
	case valString:
		_, ok := v.(string)
		return ok
	case valBool:
		_, ok := v.(bool)
		return ok
	case valNumber:
		_, ok := v.(float64)
		return ok
	case valStrings:
		a, ok := v.([]any)
		return ok && allStrings(a)
	}
	return true
}

// geminiTypes are the type names the API knows (its Type enum, in JSON
// Schema's lower case, which it accepts).
var geminiTypes = map[string]bool{
	"string": true, "number": true, "integer": true, "boolean": true, "array": true, "object": true,
}

// geminiParameters converts a tool's JSON Schema to a declaration's
// parameters, or nil when the tool takes none: the API refuses an object
// schema with empty properties ("should be non-empty for OBJECT type").
// A schema that is not a JSON object is sent as none, so one odd MCP tool
// cannot make every request fail.
func geminiParameters(raw json.RawMessage) json.RawMessage {
	var schema map[string]any
	if len(raw) == 0 || json.Unmarshal(raw, &schema) != nil || schema == nil {
		return nil
	}
	s := geminiSchema(schema)
	if props, _ := s["properties"].(map[string]any); len(props) == 0 {
		return nil
	}
	s["type"] = "object"
	b, err := json.Marshal(s)
	if err != nil {
		return nil
	}
	return b
}

// geminiSchema rewrites one JSON Schema node into the API's subset,
// keeping what it can express: a type list with "null" becomes nullable,
// a string const a one-value enum (the API's enum is for strings only),
// oneOf anyOf.
func geminiSchema(in map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range in {
		if kind, ok := geminiSchemaKeys[k]; ok && kind.fits(v) {
			out[k] = v
		}
	}
	geminiType(in, out)
	if c, ok := in["const"].(string); ok {
		out["enum"] = []any{c}
	}
	if _, ok := out["anyOf"]; !ok {
		if one, ok := in["oneOf"]; ok {
			out["anyOf"] = one
		}
	}
	geminiChildren(out)
	if _, ok := out["properties"]; !ok && out["type"] == "object" {
		// A free-form object: the API refuses OBJECT without properties,
		// so the value is left untyped, with its description.
		delete(out, "type")
	}
	return out
}

// geminiType settles out's type: one of the API's names, or none.
func geminiType(in, out map[string]any) {
	delete(out, "type")
	switch t := in["type"].(type) {
	case string:
		if geminiTypes[t] {
			out["type"] = t
		}
	case []any:
		for _, e := range t {
			s, _ := e.(string)
			switch {
			case s == "null":
				out["nullable"] = true
			case geminiTypes[s] && out["type"] == nil:
				out["type"] = s
			}
		}
	}
	if out["type"] == nil {
		if _, ok := in["properties"]; ok {
			out["type"] = "object"
		}
	}
}

// geminiChildren converts the nested schemas and drops what would be
// refused: empty properties, required names of no property.
func geminiChildren(out map[string]any) {
	if props, ok := out["properties"].(map[string]any); ok && len(props) > 0 {
		conv := make(map[string]any, len(props))
		for name, p := range props {
			if m, ok := p.(map[string]any); ok {
				conv[name] = geminiSchema(m)
			} else {
				conv[name] = map[string]any{}
			}
		}
		out["properties"] = conv
	} else {
		delete(out, "properties")
	}
	props, _ := out["properties"].(map[string]any)
	if req, ok := out["required"].([]any); ok {
		var keep []any
		for _, r := range req {
			if s, ok := r.(string); ok && props[s] != nil && !slices.Contains(keep, any(s)) {
				keep = append(keep, s)
			}
		}
		if len(keep) > 0 {
			out["required"] = keep
		} else {
			delete(out, "required")
		}
	}
	if items, ok := out["items"].(map[string]any); ok {
		out["items"] = geminiSchema(items)
	} else {
		delete(out, "items") // a tuple's item list has no equivalent
	}
	if alts, ok := out["anyOf"].([]any); ok {
		var conv []any
		for _, a := range alts {
			if m, ok := a.(map[string]any); ok {
				conv = append(conv, geminiSchema(m))
			}
		}
		if len(conv) > 0 {
			out["anyOf"] = conv
		} else {
			delete(out, "anyOf")
		}
	} else {
		delete(out, "anyOf")
	}
}

func allStrings(vs []any) bool {
	for _, v := range vs {
		if _, ok := v.(string); !ok {
			return false
		}
	}
	return len(vs) > 0
}
