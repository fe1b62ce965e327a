package hooks

import (
	"encoding/json"
	"testing"
)

func TestClaudeAndParleyInput(t *testing.T) {
	tests := []struct {
		tool, in, wantSent, updated, wantBack string
	}{
		{"edit_file", `{"path":"a.go"}`, `{"file_path":"a.go","path":"a.go"}`,
			`{"file_path":"b.go","path":"a.go"}`, `{"path":"b.go"}`},
		// A hook that changed path itself wins over the copy in file_path.
		{"edit_file", `{"path":"a.go"}`, `{"file_path":"a.go","path":"a.go"}`,
			`{"file_path":"a.go","path":"c.go"}`, `{"path":"c.go"}`},
		{"write_file", `{"path":"a.go"}`, `{"file_path":"a.go","path":"a.go"}`,
			`{"file_path":"d.go"}`, `{"path":"d.go"}`},
		// Other tools, and input without path, pass unchanged.
		{"shell", `{"command":"ls"}`, `{"command":"ls"}`, `{"command":"pwd"}`, `{"command":"pwd"}`},
		{"read_file", `{}`, `{}`, `{"path":"x"}`, `{"path":"x"}`},
		{"read_file", `not json`, `not json`, `{"path":"x"}`, `{"path":"x"}`},
	}
	for _, tt := range tests {
		sent := ClaudeInput(tt.tool, json.RawMessage(tt.in))
		if string(sent) != tt.wantSent {
			t.Errorf("ClaudeInput(%s, %s) = %s, want %s", tt.tool, tt.in, sent, tt.wantSent)
		}
		if back := ParleyInput(tt.tool, sent, json.RawMessage(tt.updated)); string(back) != tt.wantBack {
			t.Errorf("ParleyInput(%s, %s) = %s, want %s", tt.tool, tt.updated, back, tt.wantBack)
		}
	}
}
