package config

// applyVision merges a layer's "vision" section: {"llava": true,
// "my-text-model": false} says which models take images where the
// built-in table (provider.SupportsImages) does not know or is wrong.
// Keys are model-name prefixes; a later layer's entry replaces an
// earlier one of the same name.
func (r *Layer) applyVision(l Layer) {
	for name, v := range l.Vision {
		if r.Vision == nil {
			r.Vision = map[string]bool{}
		}
		r.Vision[name] = v
	}
}
