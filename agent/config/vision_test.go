package config

import (
	"maps"
	"testing"
)

func TestVisionLayers(t *testing.T) {
	c, err := fixture{
		user:      `{"vision": {"llava-custom": true, "gpt-4o": false}}`,
		workspace: `{"vision": {"gpt-4o": true}}`,
	}.load(t)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"llava-custom": true, "gpt-4o": true}
	if !maps.Equal(c.Vision, want) {
		t.Errorf("vision = %v, want %v", c.Vision, want)
	}
	if c.Sources["vision"] == "" {
		t.Errorf("no source for vision: %v", c.Sources)
	}
	// A later Merge adds without touching the loaded map.
	before := maps.Clone(c.Vision)
	next := *c
	if err := next.Merge(Layer{Vision: map[string]bool{"x": true}}, "flags"); err != nil {
		t.Fatal(err)
	}
	if !next.Vision["x"] || !maps.Equal(c.Vision, before) {
		t.Errorf("merged %v, original %v", next.Vision, c.Vision)
	}
}
