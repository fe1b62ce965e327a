package prompts

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/parleyhq/parley/workspace"
)

// refRE finds "@path" at the start of a word: "a@b.c" (an address) is
// not a reference.
var refRE = regexp.MustCompile(`(?:^|[\s(\[{"'])@([^\s"'<>()\[\]{}` + "`" + `,;]+)`)

// maxRefs bounds the files one message attaches.
const maxRefs = 20

// attach reads the files text references and appends each once.
func (x *Expansion) attach(ctx context.Context, read Reader, text string) {
	if read == nil {
		return
	}
	if x.seen == nil {
		x.seen = map[string]bool{}
	}
	for _, m := range refRE.FindAllStringSubmatch(text, -1) {
		tok := m[1]
		if x.seen["@"+tok] || len(x.Files) >= maxRefs {
			continue
		}
		x.seen["@"+tok] = true
		shown, body, err := readRef(ctx, read, tok)
		if err != nil {
			// A bare word (@Override, @team) is not a path: say nothing.
			if strings.ContainsAny(tok, "/.") {
				x.Notes = append(x.Notes, fmt.Sprintf("@%s not attached: %v", tok, err))
			}
			continue
		}
		if x.seen[shown] {
			continue
		}
		x.seen[shown] = true
		x.Files = append(x.Files, shown)
		x.attachments += fmt.Sprintf("\n\n<file path=%q>\n%s\n</file>", shown, strings.TrimRight(body, "\n"))
	}
}

// readRef reads tok, or tok without trailing punctuation ("see @a.go.").
func readRef(ctx context.Context, read Reader, tok string) (string, string, error) {
	shown, body, err := read(ctx, tok)
	if err == nil {
		return shown, body, nil
	}
	if t := strings.TrimRight(tok, ".,:;!?"); t != tok && t != "" {
		if shown, body, err2 := read(ctx, t); err2 == nil {
			return shown, body, nil
		}
	}
	return "", "", err
}

// DiskReader reads @references from the disk: paths inside roots only,
// symlinks resolved (workspace.Roots.Resolve), regular files up to
// 256 KiB, inlined as they are. Front ends with the agent's tools use
// ToolReader instead.
func DiskReader(roots *workspace.Roots) Reader {
	return func(_ context.Context, p string) (string, string, error) {
		abs, _, rel, err := roots.Resolve(p)
		if err != nil {
			return "", "", err
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return "", "", cleanErr(err)
		}
		if !fi.Mode().IsRegular() {
			return "", "", errors.New("not a regular file")
		}
		data, err := readCapped(abs)
		if err != nil {
			return "", "", cleanErr(err)
		}
		if len(data) > maxFileSize {
			return "", "", fmt.Errorf("larger than %d bytes", maxFileSize)
		}
		return filepath.ToSlash(rel), string(data), nil
	}
}

// cleanErr drops the absolute path from a file error: the note names the
// reference already.
func cleanErr(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return errors.New("no such file")
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
