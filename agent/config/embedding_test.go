package config

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestEmbedding(t *testing.T) {
	tests := []struct {
		name                     string
		f                        fixture
		wantURL, wantModel, want string // want: the key
		ok                       bool
		err                      string
	}{
		{"none", fixture{}, "", "", "", false, ""},
		{"model only: OpenAI with OPENAI_API_KEY", fixture{env: map[string]string{"OPENAI_API_KEY": "sk-O", "PARLEY_EMBEDDING_MODEL": "text-embedding-3-small"}},
			DefaultEmbeddingURL, "text-embedding-3-small", "sk-O", true, ""},
		{"ollama from the user file gets no key", fixture{user: `{"embedding_api_url":"http://localhost:11434/v1","embedding_model":"nomic-embed-text"}`, env: map[string]string{"OPENAI_API_KEY": "sk-O"}},
			"http://localhost:11434/v1", "nomic-embed-text", "", true, ""},
		{"embedding key goes to its URL", fixture{env: map[string]string{"PARLEY_EMBEDDING_API_URL": "https://embed.example/v1/embeddings", "PARLEY_EMBEDDING_MODEL": "m", "PARLEY_EMBEDDING_API_KEY": "sk-E"}},
			"https://embed.example/v1/embeddings", "m", "sk-E", true, ""},
		{"embedding key withheld from a workspace URL", fixture{workspace: `{"embedding_api_url":"https://evil.example/v1/embeddings","embedding_model":"m"}`, env: map[string]string{"PARLEY_EMBEDDING_API_KEY": "sk-E"}},
			"https://evil.example/v1/embeddings", "m", "", true, ""},
		{"workspace model, user URL: key sent", fixture{workspace: `{"embedding_model":"m"}`, env: map[string]string{"PARLEY_EMBEDDING_API_URL": "http://localhost:1/v1", "PARLEY_EMBEDDING_API_KEY": "sk-E"}},
			"http://localhost:1/v1", "m", "sk-E", true, ""},
		{"URL without model", fixture{env: map[string]string{"PARLEY_EMBEDDING_API_URL": "http://localhost:1/v1"}}, "", "", "", false, "embedding_model is not"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := tt.f.load(t)
			if err != nil {
				t.Fatal(err)
			}
			u, m, k, ok, err := c.Embedding()
			if u != tt.wantURL || m != tt.wantModel || k != tt.want || ok != tt.ok {
				t.Errorf("Embedding() = %q %q %q %v, want %q %q %q %v", u, m, k, ok, tt.wantURL, tt.wantModel, tt.want, tt.ok)
			}
			if (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
				t.Errorf("err = %v, want %q", err, tt.err)
			}
		})
	}
}

func TestEmbeddingErrors(t *testing.T) {
	if _, err := (fixture{workspace: `{"embedding_api_key":"sk-E"}`}).load(t); err == nil || !strings.Contains(err.Error(), "API keys do not belong") {
		t.Errorf("embedding_api_key in a workspace file: %v", err)
	}
	if _, err := (fixture{env: map[string]string{"PARLEY_EMBEDDING_API_URL": "localhost:11434"}}).load(t); err == nil || !strings.Contains(err.Error(), "embedding_api_url") {
		t.Errorf("URL without scheme: %v", err)
	}
	c, err := fixture{env: map[string]string{"PARLEY_EMBEDDING_API_KEY": "sk-embed-secret", "PARLEY_EMBEDDING_MODEL": "m"}}.load(t)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(c.Redacted())
	if strings.Contains(string(b)+c.String(), "sk-embed-secret") {
		t.Errorf("printed config leaks the embedding key: %s", b)
	}
	if c.Sources["embedding_model"] != "env PARLEY_EMBEDDING_MODEL" {
		t.Errorf("sources %v", c.Sources)
	}
}

func TestEmbeddingCacheMB(t *testing.T) {
	c, err := fixture{user: `{"embedding_cache_mb": 16}`}.load(t)
	if err != nil || c.EmbeddingCacheMB != 16 {
		t.Errorf("embedding_cache_mb 16: %d, %v", c.EmbeddingCacheMB, err)
	}
	if _, err := (fixture{user: `{"embedding_cache_mb": -1}`}).load(t); err == nil || !strings.Contains(err.Error(), "embedding_cache_mb") {
		t.Errorf("embedding_cache_mb -1: %v", err)
	}
}

func TestMemoryRecallSimilarity(t *testing.T) {
	c, err := fixture{user: `{"memory_recall_similarity": 0.45}`}.load(t)
	if err != nil || c.MemoryRecallSimilarity != 0.45 || c.Sources["memory_recall_similarity"] == "" {
		t.Errorf("memory_recall_similarity 0.45: %v, %v, sources %v", c.MemoryRecallSimilarity, err, c.Sources)
	}
	for _, bad := range []string{"-0.1", "1", "1.5"} {
		if _, err := (fixture{user: `{"memory_recall_similarity": ` + bad + `}`}).load(t); err == nil || !strings.Contains(err.Error(), "memory_recall_similarity") {
			t.Errorf("memory_recall_similarity %s: %v", bad, err)
		}
	}
}
