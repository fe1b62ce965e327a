package prompts

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/parleyhq/parley/agent/hooks"
	"github.com/parleyhq/parley/agent/mentions"
)

// part is a piece of a command's body: text, or a shell line found in the
// file itself.
type part struct {
	text   string // the text, or the shell command
	shell  bool
	fenced bool // text inside a fenced code block: no @references either
}

// parts splits body into text and shell lines. A shell line is "!`cmd`"
// on one line, or a line starting with "!" (but not "![", an image);
// neither counts inside a fenced code block.
func parts(body string) []part {
	var out []part
	var fence string
	text := func(s string, fenced bool) {
		if s == "" {
			return
		}
		if n := len(out); n > 0 && !out[n-1].shell && out[n-1].fenced == fenced {
			out[n-1].text += s
			return
		}
		out = append(out, part{text: s, fenced: fenced})
	}
	for line := range strings.SplitAfterSeq(body, "\n") {
		trimmed := strings.TrimLeft(line, " \t")
		if fence != "" {
			text(line, true)
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if m := fenceRE.FindString(trimmed); m != "" {
			fence = m
			text(line, true)
			continue
		}
		if cmd, ok := lineCommand(line); ok {
			out = append(out, part{text: cmd, shell: true})
			if strings.HasSuffix(line, "\n") {
				text("\n", false)
			}
			continue
		}
		for {
			i := strings.Index(line, "!`")
			if i < 0 {
				break
			}
			j := strings.IndexByte(line[i+2:], '`')
			if j < 0 {
				break
			}
			if cmd := strings.TrimSpace(line[i+2 : i+2+j]); cmd != "" {
				text(line[:i], false)
				out = append(out, part{text: cmd, shell: true})
			} else {
				text(line[:i+2+j+1], false)
			}
			line = line[i+2+j+1:]
		}
		text(line, false)
	}
	return out
}

// argsRE finds a shell line's use of the arguments.
var argsRE = regexp.MustCompile(`\$(\{?ARGUMENTS|\{?[1-9@*])`)

var fenceRE = regexp.MustCompile("^(```+|~~~+)")

// lineCommand reads a line "!cmd".
func lineCommand(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "!")
	if !ok || strings.HasPrefix(rest, "[") || strings.HasPrefix(rest, "`") {
		return "", false
	}
	cmd := strings.TrimSpace(rest)
	return cmd, cmd != ""
}

// ShellLines are the commands the file runs, in order.
func (c *Command) ShellLines() []string {
	var out []string
	for _, p := range parts(c.Body) {
		if p.shell {
			out = append(out, p.text)
		}
	}
	return out
}

// Key identifies the command's shell lines in its workspace for the
// approvals file: changing a line, or moving the workspace, needs a new
// approval; editing the prose does not.
func (c *Command) Key() string {
	// The front ends name a root as given or with its symlinks resolved:
	// one approval holds for both.
	root := c.Root
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	return hooks.KeyOf(root, "prompt-command", c.Name, strings.Join(c.ShellLines(), "\n"))
}

// NeedsApproval reports whether the command runs shell lines the user has
// not approved: only workspace commands ever do.
func (c *Command) NeedsApproval(ap *hooks.Approvals) bool {
	return c.Source == Workspace && len(c.ShellLines()) > 0 && !ap.Approved(c.Key())
}

// ErrNotApproved is wrapped by Expand's error for a workspace command
// whose shell lines the user has not approved.
var ErrNotApproved = errors.New("not approved")

// Reader reads a file an @reference names (one attachment per shown
// path): mentions.ToolReader or mentions.DiskReader.
type Reader = mentions.Reader

// Options are what Expand needs from the front end.
type Options struct {
	Args string // the text after "/NAME"
	// Dir is where shell lines run when the command has no Root of its
	// own (a user command): the primary workspace root.
	Dir string
	// Read attaches @references (nil: they stay text).
	Read Reader
	// Approvals are the user's; nil reads hooks.DefaultApprovalsFile
	// when a workspace command has shell lines.
	Approvals *hooks.Approvals
	// ShellTimeout bounds each shell line (0: DefaultShellTimeout).
	ShellTimeout time.Duration
}

// DefaultShellTimeout bounds a shell line without Options.ShellTimeout.
const DefaultShellTimeout = 30 * time.Second

// Expansion is a command made into the message of one turn.
type Expansion struct {
	Command *Command
	Prompt  string
	Files   []string // the attached files, as shown
	Ran     []string // the shell lines run
	// Notes are for the user: references left as text, shell lines that
	// failed, allowed-tools names that match nothing.
	Notes []string

	attachments string          // the files' blocks, put after the prompt
	seen        map[string]bool // shown paths attached, and tokens tried
}

// Expand makes the command's message for args (see the package doc for
// the order). Its error means nothing should be sent: arguments that do
// not split, or shell lines not approved (ErrNotApproved).
func (c *Command) Expand(ctx context.Context, o Options) (*Expansion, error) {
	words, err := SplitArgs(o.Args)
	if err != nil {
		return nil, fmt.Errorf("/%s: %w", c.Name, err)
	}
	if err := c.checkApproval(o.Approvals); err != nil {
		return nil, err
	}
	x := &Expansion{Command: c}
	var b strings.Builder
	used := false
	dir := c.Root
	if dir == "" {
		dir = o.Dir
	}
	for _, p := range parts(c.Body) {
		if p.shell {
			out, note := runShell(ctx, dir, c.Name, p.text, o.Args, words, o.ShellTimeout)
			b.WriteString(out)
			x.Ran = append(x.Ran, p.text)
			used = used || argsRE.MatchString(p.text)
			if note != "" {
				x.Notes = append(x.Notes, note)
			}
			continue
		}
		s, u := substitute(p.text, o.Args, words)
		used = used || u
		if !p.fenced {
			x.attach(ctx, o.Read, s)
		}
		b.WriteString(s)
	}
	prompt := strings.TrimSpace(b.String())
	if !used && o.Args != "" {
		prompt += "\n\nARGUMENTS: " + o.Args
		x.attach(ctx, o.Read, o.Args)
	}
	x.Prompt = prompt + x.attachments
	return x, nil
}

func (c *Command) checkApproval(ap *hooks.Approvals) error {
	if c.Source != Workspace || len(c.ShellLines()) == 0 {
		return nil
	}
	if ap == nil {
		path, err := hooks.DefaultApprovalsFile()
		if err == nil {
			ap, err = hooks.OpenApprovals(path)
		}
		if err != nil {
			return fmt.Errorf("/%s runs shell lines and the approvals cannot be read: %w", c.Name, err)
		}
	}
	if c.NeedsApproval(ap) {
		return fmt.Errorf("/%s runs shell lines from %s that you have not approved (%s): %w; review them and run `parley commands approve`",
			c.Name, c.Path, strings.Join(c.ShellLines(), "; "), ErrNotApproved)
	}
	return nil
}
