package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The Python and TypeScript samplers pick callees and attribute names in
// non-test files only, and skip dunders and lines with non-ASCII text
// before the site.
func TestSampleTreeSitterJudges(t *testing.T) {
	tests := []struct {
		judge string
		files map[string]string
		want  []site
	}{
		{"pyright", map[string]string{
			"pkg/m.py":          "import os\n\ndef f(x):\n    os.path.join(x, g())\n    super().__init__()\n    s = 'é'; h()\n",
			"pkg/test_m.py":     "f(1)\n",
			"test/support.py":   "f(2)\n",
			"pkg/tests/util.py": "f(3)\n",
		}, []site{
			{File: "pkg/m.py", Line: 3, Col: 7, Name: "path"},
			{File: "pkg/m.py", Line: 3, Col: 12, Name: "join"},
			{File: "pkg/m.py", Line: 3, Col: 20, Name: "g"},
			{File: "pkg/m.py", Line: 4, Col: 4, Name: "super"},
		}},
		{"tsserver", map[string]string{
			"src/a.ts":      "import { b } from './b';\nexport function a(x: B) { return b(x.y, new C()); }\n",
			"src/a.spec.ts": "a(1);\n",
			"src/b.d.ts":    "declare function b(): void;\nb();\n",
			"src/c.tsx":     "const e = <div>{f(1)}</div>;\n",
		}, []site{
			{File: "src/a.ts", Line: 1, Col: 33, Name: "b"},
			{File: "src/a.ts", Line: 1, Col: 37, Name: "y"},
			{File: "src/a.ts", Line: 1, Col: 44, Name: "C"},
			{File: "src/c.tsx", Line: 0, Col: 16, Name: "f"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.judge, func(t *testing.T) {
			dir := t.TempDir()
			for rel, src := range tc.files {
				p := filepath.Join(dir, rel)
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := sample(dir, 20, 1, judges[tc.judge], nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			cmp := func(a, b site) int {
				if a.File != b.File {
					return map[bool]int{true: -1, false: 1}[a.File < b.File]
				}
				return int(a.Line*1000+a.Col) - int(b.Line*1000+b.Col)
			}
			slices.SortFunc(got, cmp)
			if !slices.Equal(got, tc.want) {
				t.Errorf("sites = %+v\nwant %+v", got, tc.want)
			}
		})
	}
}
