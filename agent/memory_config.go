package agent

import (
	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/memory"
	"github.com/parleyhq/parley/memory/embed"
)

// ConfigureMemory makes set's recall what cfg asks for: hybrid when cfg
// names an embeddings endpoint (embedding_api_url, embedding_model,
// embedding_cache_mb, with memory_recall_similarity for auto-recall),
// else lexical. The translation lives here so that memory does not
// depend on the agent's configuration. Its error is a configuration the
// user must fix.
func ConfigureMemory(set *memory.Set, cfg *config.Config) error {
	o := memory.RecallOptions{MinSimilarity: cfg.MemoryRecallSimilarity, CacheBytes: int64(cfg.EmbeddingCacheMB) << 20}
	endpoint, model, key, ok, err := cfg.Embedding()
	if err != nil {
		return err
	}
	if ok {
		o.Embedding = &embed.Config{URL: endpoint, Model: model, Key: key}
	}
	return set.Configure(o)
}
