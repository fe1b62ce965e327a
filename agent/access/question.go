package access

import (
	"fmt"
	"strings"
)

// Question is what an approval prompt asks about the call of tool that
// would do a, in one line: "parley wants to run: go test ./...", "parley
// wants to change a.go (…)". The editor's chat and ACP's permission
// request both show it; the VS Code extension splits it after the verb
// (editors/vscode/src/approvals.ts), so the wording "parley wants to
// <run:|fetch|change|use>" is a contract. A command is shown whole: the
// user approves all of it.
func Question(tool string, a Access) string {
	var b strings.Builder
	b.WriteString("parley wants to ")
	switch a.Kind {
	case Shell:
		fmt.Fprintf(&b, "run: %s", a.Command)
	case Network:
		fmt.Fprintf(&b, "fetch %s", a.URL)
	case Edit:
		fmt.Fprintf(&b, "change %s", strings.Join(a.Paths, ", "))
	default:
		fmt.Fprintf(&b, "use %s", tool)
	}
	if a.Summary != "" && a.Kind != Shell {
		fmt.Fprintf(&b, " (%s)", a.Summary)
	}
	return b.String()
}
