// Package access describes what a tool call would touch, in the terms the
// permission policy judges and an approval prompt shows. The tools produce
// it when they prepare a call; agent/permission decides on it; the terminal
// and the editor show it when they ask the user. It is a leaf package, so
// the policy depends on none of the tools (nor, through them, the index).
package access

// Kind classifies side effects for the permission policy.
type Kind string

const (
	Read    Kind = "read"    // reads workspace files or the index
	Edit    Kind = "edit"    // creates, changes, renames or deletes files
	Shell   Kind = "shell"   // runs a command
	Network Kind = "network" // fetches a URL
	Git     Kind = "git"     // writes to the repository (commit)
)

// Access describes one call for the permission policy and approval prompt.
type Access struct {
	Kind Kind
	// Paths are root-relative, slash-separated paths the call touches
	// (edit rules such as "edit(src/**)" match them).
	Paths []string
	// Command is the shell command line (shell rules such as
	// "shell(go test:*)" match it).
	Command string
	// URL is the fetched address.
	URL string
	// Summary is one human line for an approval prompt.
	Summary string
}
