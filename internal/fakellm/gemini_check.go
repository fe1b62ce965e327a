package fakellm

import (
	"encoding/base64"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// geminiSchemaFields are the fields of the API's Schema message; the API
// parses a declaration as a protocol buffer and refuses any other name.
var geminiSchemaFields = map[string]bool{
	"type": true, "format": true, "title": true, "description": true,
	"nullable": true, "enum": true, "maxItems": true, "minItems": true,
	"properties": true, "required": true, "minProperties": true,
	"maxProperties": true, "minLength": true, "maxLength": true,
	"pattern": true, "example": true, "anyOf": true, "propertyOrdering": true,
	"default": true, "items": true, "minimum": true, "maximum": true,
}

// geminiSchemaError checks one function declaration's parameters.
func geminiSchemaError(v any, at string) string {
	if v == nil {
		return ""
	}
	s, ok := v.(map[string]any)
	if !ok {
		return fmt.Sprintf("Invalid JSON payload received. Expected an object at '%s'.", at)
	}
	for _, k := range slices.Sorted(maps.Keys(s)) {
		if !geminiSchemaFields[k] {
			return fmt.Sprintf("Invalid JSON payload received. Unknown name %q at '%s': Cannot find field.", k, at)
		}
	}
	props, _ := s["properties"].(map[string]any)
	if strings.EqualFold(fmt.Sprint(s["type"]), "object") && len(props) == 0 {
		return fmt.Sprintf("* GenerateContentRequest.%s.properties: should be non-empty for OBJECT type", at)
	}
	for _, name := range slices.Sorted(maps.Keys(props)) {
		if msg := geminiSchemaError(props[name], fmt.Sprintf("%s.properties[%s].value", at, name)); msg != "" {
			return msg
		}
	}
	if msg := geminiSchemaError(s["items"], at+".items"); msg != "" {
		return msg
	}
	alts, _ := s["anyOf"].([]any)
	for i, a := range alts {
		if msg := geminiSchemaError(a, fmt.Sprintf("%s.any_of[%d]", at, i)); msg != "" {
			return msg
		}
	}
	return ""
}

type geminiTurn = struct {
	Role  string           `json:"role"`
	Parts []map[string]any `json:"parts"`
}

// geminiTurnError checks the function calling turns: each call turn is
// answered by the next turn with one response per call, naming called
// functions; and, as Gemini 3 requires, the calls of the current turn
// (after the user's last words) carry back the signature the fake gave
// the first of them, unchanged.
func geminiTurnError(contents []geminiTurn) string {
	current := 0
	for i, c := range contents {
		if c.Role == "user" && slices.ContainsFunc(c.Parts, func(p map[string]any) bool { return p["functionResponse"] == nil }) {
			current = i + 1
		}
	}
	for i, c := range contents {
		calls := geminiNames(c.Parts, "functionCall")
		resps := geminiNames(c.Parts, "functionResponse")
		if len(resps) > 0 && (i == 0 || len(geminiNames(contents[i-1].Parts, "functionCall")) == 0) {
			return "Please ensure that function response turn comes immediately after a function call turn."
		}
		if len(calls) == 0 || i+1 == len(contents) {
			continue
		}
		next := geminiNames(contents[i+1].Parts, "functionResponse")
		if len(next) != len(calls) {
			return "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn."
		}
		for _, n := range next {
			if !slices.Contains(calls, n) {
				return fmt.Sprintf("fakellm: function response %q answers no call of the turn before", n)
			}
		}
		if i >= current {
			if msg := geminiSignatureError(c.Parts); msg != "" {
				return msg
			}
		}
	}
	return ""
}

func geminiSignatureError(parts []map[string]any) string {
	for pos, p := range parts {
		fc, ok := p["functionCall"].(map[string]any)
		if !ok {
			continue
		}
		sig, _ := p["thoughtSignature"].(string)
		if sig == "" {
			return fmt.Sprintf("Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, "+
				"and missing thought_signature may lead to degraded model performance. Additional data, function call `%v`, position %d. "+
				"Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.", fc["name"], pos+1)
		}
		if b, err := base64.StdEncoding.DecodeString(sig); err != nil || !strings.HasPrefix(string(b), "fakellm-thought-") {
			return "Corrupted thought signature."
		}
		return "" // only the first call of a turn carries one
	}
	return ""
}

// geminiNames lists the names of the parts' function calls or responses.
func geminiNames(parts []map[string]any, kind string) []string {
	var names []string
	for _, p := range parts {
		if f, ok := p[kind].(map[string]any); ok {
			names = append(names, fmt.Sprint(f["name"]))
		}
	}
	return names
}
