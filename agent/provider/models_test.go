package provider

import "testing"

func TestContextWindow(t *testing.T) {
	tests := []struct {
		model    string
		fallback int
		want     int
	}{
		{"claude-sonnet-4-5-20250929", 0, 200_000},
		{"claude-opus-4-1", 0, 200_000},
		{"claude-3-5-haiku-latest", 0, 200_000},
		{"claude-3-7-sonnet-20250219", 0, 200_000},
		{"claude-2.0", 0, 100_000},
		{"claude-2.1", 0, 200_000},
		{"anthropic/claude-3.5-sonnet", 0, 200_000}, // OpenRouter id
		{"gpt-4o", 0, 128_000},
		{"gpt-4o-mini-2024-07-18", 0, 128_000},
		{"openai/gpt-4o", 0, 128_000},
		{"gpt-4.1-mini", 0, 1_047_576},
		{"gpt-4", 0, 8_192},
		{"gpt-4-turbo-2024-04-09", 0, 128_000},
		{"gpt-3.5-turbo", 0, 16_385},
		{"o1", 0, 200_000},
		{"o1-mini", 0, 128_000},
		{"o3-mini-2025-01-31", 0, 200_000},
		{"o4-mini", 0, 200_000},
		{"gpt-5", 0, 400_000},
		{"gpt-5-mini", 0, 400_000},
		{"GPT-5-Nano", 0, 400_000},
		{"deepseek-chat", 0, 128_000},
		{"deepseek-reasoner", 0, 128_000},
		{"deepseek/deepseek-r1", 0, 128_000},
		{"deepseek-coder:6.7b", 0, 16_384},
		{"qwen-plus", 0, 131_072},
		{"qwen-max-latest", 0, 32_768},
		{"qwen2.5-coder:7b", 0, 32_768},
		{"qwen3-coder-plus", 0, 262_144},
		{"my-finetune", 65_536, 65_536},
		{"my-finetune", 0, 8_192},
		{"", -1, 8_192},
	}
	for _, tt := range tests {
		if got := ContextWindow(tt.model, tt.fallback); got != tt.want {
			t.Errorf("ContextWindow(%q, %d) = %d, want %d", tt.model, tt.fallback, got, tt.want)
		}
	}
}

func TestMaxOutputTokens(t *testing.T) {
	for _, tt := range []struct {
		model string
		want  int
	}{
		{"claude-sonnet-4-5-20250929", 64_000},
		{"claude-sonnet-4-20250514", 64_000},
		{"claude-opus-4-1-20250805", 32_000},
		{"claude-opus-4-5", 64_000},
		{"claude-haiku-4-5", 64_000},
		{"claude-3-7-sonnet-latest", 64_000},
		{"claude-3-5-haiku-latest", 8_192},
		{"claude-3-opus-20240229", 4_096},
		{"anthropic/claude-sonnet-4.5", 64_000},
		{"gpt-4o-mini", 16_384},
		{"gpt-4.1", 32_768},
		{"gpt-4-turbo-2024-04-09", 4_096},
		{"gpt-4-0613", 8_192},
		{"gpt-5-mini", 128_000},
		{"o3-mini", 100_000},
		{"deepseek-chat", 8_192},
		{"qwen2.5-coder:7b", 0},
		{"", 0},
	} {
		if got := MaxOutputTokens(tt.model); got != tt.want {
			t.Errorf("MaxOutputTokens(%q) = %d, want %d", tt.model, got, tt.want)
		}
	}
}
