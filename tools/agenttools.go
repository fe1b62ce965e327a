package tools

// AgentTools is the tool set of an interactive agent (terminal chat, the
// language server and parley loop): FileTools, ShellTools, the task tool,
// the memory tools and the vector_db_* tools.
func AgentTools() []Tool {
	all := append(FileTools(), ShellTools()...)
	all = append(all, taskTool)
	all = append(all, MemoryTools()...)
	return append(all, VectorTools()...)
}
