package hooks

import "encoding/json"

// claudeNames are Claude Code's names of the tools parley has too, so
// that matchers written for Claude Code ("Bash", "Edit|Write") select the
// same tools here. Hooks still receive parley's name in tool_name.
var claudeNames = map[string]string{
	"shell":      "Bash",
	"read_file":  "Read",
	"write_file": "Write",
	"edit_file":  "Edit",
	"multi_edit": "MultiEdit",
	"list_dir":   "LS",
	"glob":       "Glob",
	"grep":       "Grep",
	"todo_write": "TodoWrite",
	"fetch_url":  "WebFetch",
	"task":       "Task",
}

// ParleyName is parley's name of the tool Claude Code calls claude
// ("Bash" is "shell"), for definitions written for Claude Code.
func ParleyName(claude string) (string, bool) {
	for parley, c := range claudeNames {
		if c == claude {
			return parley, true
		}
	}
	return "", false
}

// matches reports whether h's matcher selects the event's key, by
// parley's name or by Claude Code's.
func (h *hook) matches(key string) bool {
	if h.match(key) {
		return true
	}
	alias, ok := claudeNames[key]
	return ok && h.match(alias)
}

// pathTools take their file in "path", where Claude Code's tools take
// "file_path". Hook scripts written for Claude Code read
// .tool_input.file_path, so the payload carries both.
var pathTools = map[string]bool{"read_file": true, "write_file": true, "edit_file": true, "multi_edit": true}

// ClaudeInput returns a tool's input as hooks see it: for the file tools,
// "file_path" is added beside "path" (when absent). Other input is
// returned unchanged.
func ClaudeInput(tool string, in json.RawMessage) json.RawMessage {
	if !pathTools[tool] {
		return in
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(in, &m) != nil || m["path"] == nil || m["file_path"] != nil {
		return in
	}
	m["file_path"] = m["path"]
	out, err := json.Marshal(m)
	if err != nil {
		return in
	}
	return out
}

// ParleyInput takes a hook's updatedInput back to the tool's own fields:
// for the file tools, a "file_path" becomes "path" (a hook that changed
// either wins over the copy it was sent).
func ParleyInput(tool string, sent, updated json.RawMessage) json.RawMessage {
	if !pathTools[tool] {
		return updated
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(updated, &m) != nil || m["file_path"] == nil {
		return updated
	}
	var orig map[string]json.RawMessage
	_ = json.Unmarshal(sent, &orig)
	fp := m["file_path"]
	delete(m, "file_path")
	if m["path"] == nil || string(m["path"]) == string(orig["path"]) {
		m["path"] = fp
	}
	out, err := json.Marshal(m)
	if err != nil {
		return updated
	}
	return out
}
