package extract

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestModernWithinBudget: the testdata/*_modern.txtar fixtures are files
// of production style in each language's current syntax (docs on every
// member); under the budget the index gives a file of their size
// (BudgetFor), each must come out complete, with every symbol of its
// golden outline. A C# 12 service of this kind was stored partial with no
// symbols (issue 27): gotreesitter's ordinary C# parser took 27 s on it.
func TestModernWithinBudget(t *testing.T) {
	n := 0
	for _, f := range loadFixtures(t) {
		name := strings.TrimSuffix(filepath.Base(f.path), ".txtar")
		if !strings.HasSuffix(name, "_modern") {
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			if testing.Short() && f.lang == "swift" {
				t.Skip("the swift grammar takes seconds and ~2 GB to load")
			}
			ex := For(f.lang)
			// Load the grammar first: its tables are not the file's cost.
			if _, err := ex.Extract(context.Background(), "warmup", nil, Options{}); err != nil {
				t.Fatal(err)
			}
			// Under -race the budget grows with the detector's slowdown;
			// the slow paths this guards against took 30-300x the budget.
			budget := BudgetFor(len(f.src)) * raceSlowdown
			res, err := ex.Extract(context.Background(), f.srcName, f.src, Options{Budget: budget})
			if err != nil {
				t.Fatal(err)
			}
			if res.Partial != "" {
				t.Errorf("partial under %s: %s (%d symbols)", budget, res.Partial, len(res.Symbols))
			}
			want, _ := goldenSection(f.archive, outlineGolden)
			if d := firstDiff(want, formatOutline(res)); d != "" {
				t.Errorf("outline under the budget differs from %s:\n%s", f.path, d)
			}
		})
	}
	if n == 0 {
		t.Fatal("no testdata/*_modern.txtar fixtures")
	}
}
