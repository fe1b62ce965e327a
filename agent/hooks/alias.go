package hooks

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

// matches reports whether h's matcher selects the event's key, by
// parley's name or by Claude Code's.
func (h *hook) matches(key string) bool {
	if h.match(key) {
		return true
	}
	alias, ok := claudeNames[key]
	return ok && h.match(alias)
}
