package provider

import (
	"encoding/json"
	"strings"
)

// toolInput turns streamed tool arguments into Block.Input: "{}" when the
// model sent none, the JSON itself when valid, and otherwise the raw text
// as a JSON string, so the history stays valid JSON and the tool layer
// reports the malformed call to the model.
func toolInput(args string) json.RawMessage {
	args = strings.TrimSpace(args)
	if args == "" {
		return json.RawMessage("{}")
	}
	if json.Valid([]byte(args)) {
		return json.RawMessage(args)
	}
	b, _ := json.Marshal(args)
	return b
}

// toolArguments is the inverse for OpenAI's wire format, where arguments
// are a string: a JSON string input is replayed as the text it holds.
func toolArguments(in json.RawMessage) string {
	in = json.RawMessage(strings.TrimSpace(string(in)))
	if len(in) == 0 {
		return "{}"
	}
	if in[0] == '"' {
		var s string
		if json.Unmarshal(in, &s) == nil {
			return s
		}
	}
	return string(in)
}
