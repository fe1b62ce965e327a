package complete

import (
	"context"
	"strings"
	"testing"
)

func TestModelNextEdit(t *testing.T) {
	before := "package p\n\nfunc f(k int) string {\n\tswitch k {\n\tcase 1:\n\t\treturn \"one\"\n\tcase 2:\n\t\treturn \"two\"\n\t}\n\treturn \"\"\n}\n"
	after := strings.Replace(before, "return \"one\"", "return strings.ToUpper(\"one\")", 1)
	last := edited(t, "p.go", before, after)
	src := NextEditSource{Path: "p.go", Text: []byte(after), Last: last}
	var prompt string
	answer := func(region string) Ask {
		return func(_ context.Context, system, user string, maxTokens int) (string, error) {
			prompt = user
			if !strings.Contains(system, regionOpen) || maxTokens <= 0 {
				t.Errorf("system %q, %d tokens", system, maxTokens)
			}
			return region, nil
		}
	}
	// The region is the whole file here (it is short); the model may
	// talk around its answer.
	want := strings.Replace(after, "return \"two\"", "return strings.ToUpper(\"two\")", 1)
	p, ok, err := ModelNextEdit(context.Background(), src, []RecentEdit{last}, 5, answer("Sure.\n"+regionOpen+"\n"+want+regionClose))
	if err != nil || !ok {
		t.Fatalf("no proposal: %v (prompt %q)", err, prompt)
	}
	for _, w := range []string{"+\t\treturn strings.ToUpper(\"one\")\n", "-\t\treturn \"one\"\n", cursorMarker + "\t\treturn strings.ToUpper(\"one\")", "Editable region of p.go (lines 1-12)"} {
		if !strings.Contains(prompt, w) {
			t.Errorf("prompt lacks %q:\n%s", w, prompt)
		}
	}
	if len(p.Edits) != 1 || p.Edits[0].Start.Line != 7 || p.Edits[0].End.Line != 8 || p.Edits[0].NewText != "\t\treturn strings.ToUpper(\"two\")\n" {
		t.Errorf("edits %+v", p.Edits)
	}
	for name, a := range map[string]string{
		"none":      "<none/>",
		"no region": "I think you should uppercase two.",
		"same":      regionOpen + "\n" + after + regionClose,
		"revert":    regionOpen + "\n" + before + regionClose,
	} {
		if p, ok, _ := ModelNextEdit(context.Background(), src, []RecentEdit{last}, 5, answer(a)); ok {
			t.Errorf("%s: proposal %+v", name, p)
		}
	}
}
