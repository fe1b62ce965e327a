package agent

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/memory"
)

func TestConfigureMemory(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cfg    config.Config
		hybrid bool
		err    string
	}{
		{"nothing configured stays lexical", config.Config{MemoryRecallSimilarity: 0.4}, false, ""},
		{"a model makes recall hybrid", config.Config{MemoryRecallSimilarity: 0.4, EmbeddingModel: "nomic-embed-text", EmbeddingAPIURL: "http://127.0.0.1:1/v1"}, true, ""},
		{"a URL without a model is an error", config.Config{EmbeddingAPIURL: "http://127.0.0.1:1/v1"}, false, "embedding_model is not"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := &memory.Set{}
			err := ConfigureMemory(set, &tc.cfg)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (set.Embedder != nil) != tc.hybrid {
				t.Errorf("embedder set = %v, want %v", set.Embedder != nil, tc.hybrid)
			}
			if set.MinSimilarity != tc.cfg.MemoryRecallSimilarity {
				t.Errorf("MinSimilarity = %v, want %v", set.MinSimilarity, tc.cfg.MemoryRecallSimilarity)
			}
		})
	}
}
