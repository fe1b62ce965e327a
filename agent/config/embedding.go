package config

import (
	"fmt"
	"net/url"
	"strings"
)

// DefaultEmbeddingURL is the embeddings endpoint used when embedding_model
// is set without embedding_api_url.
const DefaultEmbeddingURL = "https://api.openai.com/v1/embeddings"

// resolveEmbedding fills the embedding fields from raw and checks the URL.
// A URL without a model is not an error here (a later layer may name the
// model); Embedding reports it.
func (c *Config) resolveEmbedding() error {
	r := &c.raw
	c.EmbeddingAPIURL = strings.TrimSpace(val(r.EmbeddingAPIURL))
	c.EmbeddingModel = strings.TrimSpace(val(r.EmbeddingModel))
	c.EmbeddingAPIKey = val(r.EmbeddingAPIKey)
	c.EmbeddingCacheMB = val(r.EmbeddingCacheMB)
	if c.EmbeddingCacheMB < 0 {
		return fmt.Errorf("embedding_cache_mb %d: want a size in MiB, or 0 for the default", c.EmbeddingCacheMB)
	}
	c.MemoryRecallSimilarity = val(r.MemoryRecallSimilarity)
	if s := c.MemoryRecallSimilarity; s < 0 || s >= 1 {
		return fmt.Errorf("memory_recall_similarity %v: want a cosine similarity in [0, 1), or 0 for the default", s)
	}
	if c.EmbeddingAPIURL != "" {
		u, err := url.Parse(c.EmbeddingAPIURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("embedding_api_url %q: want an http or https URL such as %s", c.EmbeddingAPIURL, DefaultEmbeddingURL)
		}
	}
	return nil
}

// Embedding is the resolved embeddings endpoint: its URL, model and the
// key to send there. ok is false when no embedder is configured (memory
// search is then lexical only); err explains a configuration that names
// an endpoint but cannot be used.
//
// The key follows the chat keys' scoping: embedding_api_key /
// PARLEY_EMBEDDING_API_KEY goes to the configured URL unless a workspace
// file chose that URL; OPENAI_API_KEY goes to api.openai.com only; a
// local server (Ollama, LM Studio) gets none.
func (c *Config) Embedding() (endpoint, model, key string, ok bool, err error) {
	if c.EmbeddingModel == "" {
		if c.EmbeddingAPIURL != "" {
			return "", "", "", false, fmt.Errorf("embedding_api_url is set (%s) but embedding_model is not", c.sourceOf("embedding_api_url"))
		}
		return "", "", "", false, nil
	}
	endpoint = c.EmbeddingAPIURL
	if endpoint == "" {
		endpoint = DefaultEmbeddingURL
	}
	workspaceURL := c.workspaceFile != "" && c.Sources["embedding_api_url"] == c.workspaceFile
	switch {
	case c.EmbeddingAPIKey != "" && !workspaceURL:
		key = c.EmbeddingAPIKey
	case hostOf(endpoint) == openAIHost && c.OpenAIAPIKey != "":
		key = c.OpenAIAPIKey
	}
	return endpoint, c.EmbeddingModel, key, true, nil
}
