package complete

import (
	"time"

	"github.com/parleyhq/parley/agent/complete/fim"
	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/internal/tokcount"
)

// FromConfig resolves the configuration's "completion" section into an
// engine's settings. With no completion model configured (or completion
// switched off) the settings have no Model; err explains a section that
// names a model but cannot reach it (an unknown provider, a withheld
// key), and the settings are then usable without a model too.
func FromConfig(cfg *config.Config) (Settings, error) {
	c := cfg.Completion
	set := Settings{
		NextEdit:  c.NextEdit,
		Debounce:  time.Duration(c.DebounceMS) * time.Millisecond,
		Languages: c.Languages,
		Budget:    Budget{Context: c.ContextTokens, MaxTokens: c.MaxTokens, Count: MemoCount(tokcount.For(c.Model))},
	}
	if c.DebounceMS == 0 {
		set.Debounce = -1 // configured as none
	}
	if !c.Enabled {
		return set, nil
	}
	fc, ok, err := cfg.CompletionModel()
	if err != nil || !ok {
		return set, err
	}
	m, err := fim.New(fc)
	if err != nil {
		return set, err
	}
	set.Model = m
	return set, nil
}
