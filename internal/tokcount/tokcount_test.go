package tokcount

import "testing"

func TestCodec(t *testing.T) {
	for _, tt := range []struct{ model, enc string }{
		{"gpt-4o", "o200k_base"},
		{"gpt-4.1-mini", "o200k_base"},
		{"openai/gpt-4o", "o200k_base"},
		{"gpt-4", "cl100k_base"},
		{"gpt-3.5-turbo-0125", "cl100k_base"},
		// No published tokenizer: o200k is the estimate.
		{"claude-sonnet-4-5", "o200k_base"},
		{"qwen2.5-coder:7b", "o200k_base"},
		{"", "o200k_base"},
	} {
		c := Codec(tt.model)
		if c == nil || c.GetName() != tt.enc {
			t.Errorf("Codec(%q) = %v, want %s", tt.model, c, tt.enc)
		}
	}
}

func TestFor(t *testing.T) {
	tests := []struct {
		model, text string
		want        int
	}{
		{"", "", 0},
		{"", "hello world", 2},
		{"gpt-4", "こんにちは世界", 4},
		{"gpt-4o", "こんにちは世界", 2},
	}
	for _, tt := range tests {
		if got := For(tt.model)(tt.text); got != tt.want {
			t.Errorf("For(%q)(%q) = %d, want %d", tt.model, tt.text, got, tt.want)
		}
	}
}
