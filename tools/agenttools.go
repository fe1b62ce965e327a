package tools

// AgentTools is the tool set of an interactive agent (terminal chat and
// the language server): FileTools, ShellTools and the task tool.
func AgentTools() []Tool {
	all := append(FileTools(), ShellTools()...)
	return append(all, taskTool)
}
