package mcpserve

// Vector tools: the vector_db_* indices live beside the workspace's
// memories, so they follow the memory tools' rule. Those that only read
// (list, get, search) are served whenever Options.Memory is set; those
// that create, change or delete indices and vectors, or ingest text and
// PDFs, only with Options.MemoryWrites (`parley mcp
// --allow-memory-writes`): what they store is recalled by every later
// session of the workspace, like a memory.
//
// Unlike the memories, the indices belong to one process at a time (their
// graphs live in memory; see memory.Store.Vectors): the server takes them
// at its first vector call and keeps them until it exits, and while
// another parley process holds them every vector call is an error result
// saying so, never a failure of the server.
var (
	VectorReadTools  = []string{"vector_db_list_indices", "vector_db_get_vector", "vector_db_search"}
	VectorWriteTools = []string{
		"vector_db_create_index", "vector_db_delete_index", "vector_db_add_vector", "vector_db_update_vector",
		"vector_db_delete_vector", "vector_db_add_text", "vector_db_add_chunked_text", "vector_db_add_pdf_document",
	}
)

// destructiveTools lose data the client cannot restore.
var destructiveTools = map[string]bool{
	"delete_file": true, "write_file": true, "move_file": true,
	"vector_db_delete_index": true, "vector_db_delete_vector": true, "vector_db_update_vector": true,
}
