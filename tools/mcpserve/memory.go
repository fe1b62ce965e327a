package mcpserve

// Memory tools: recall_memories is served whenever Options.Memory is set;
// remember and forget_memory change what every later session of the
// workspace (and, for user memories, of every workspace) is told, so they
// are served only with Options.MemoryWrites. The stores are shared with
// every other parley process (package memory takes a lock per operation),
// so the server holds them for its whole life.
var (
	MemoryReadTools  = []string{"recall_memories"}
	MemoryWriteTools = []string{"remember", "forget_memory"}
)
