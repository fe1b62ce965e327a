package access

import "testing"

func TestQuestion(t *testing.T) {
	for _, tc := range []struct {
		tool string
		a    Access
		want string
	}{
		{"shell", Access{Kind: Shell, Command: "go test ./...", Summary: "ignored for commands"}, "parley wants to run: go test ./..."},
		{"fetch_url", Access{Kind: Network, URL: "https://go.dev"}, "parley wants to fetch https://go.dev"},
		{"edit_file", Access{Kind: Edit, Paths: []string{"a.go", "b.go"}, Summary: "2 edits"}, "parley wants to change a.go, b.go (2 edits)"},
		{"git_commit", Access{Kind: Git}, "parley wants to use git_commit"},
	} {
		if got := Question(tc.tool, tc.a); got != tc.want {
			t.Errorf("Question(%s) = %q, want %q", tc.tool, got, tc.want)
		}
	}
}
