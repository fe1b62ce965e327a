package tools

// AgentTools is the tool set of an interactive agent (terminal chat, the
// language server and parley loop): FileTools, ShellTools, the task tool
// and the memory tools.
func AgentTools() []Tool {
	all := append(FileTools(), ShellTools()...)
	all = append(all, taskTool)
	return append(all, MemoryTools()...)
}
