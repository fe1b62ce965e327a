package tools

// ShellTools returns the tools that reach beyond the workspace files: the
// shell and the git tools, in the order the model should see them (reads
// before writes).
func ShellTools() []Tool {
	return []Tool{
		shellTool,
		gitStatusTool,
		gitDiffTool,
		gitLogTool,
		gitCommitTool,
		fetchURLTool,
	}
}
