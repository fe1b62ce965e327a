package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/images"
	"github.com/parleyhq/parley/agent/provider"
)

// Images in `parley chat`: --image FILE (repeatable) attaches files to the
// message given on the command line, or to the first one typed in the
// REPL; /image FILE attaches one to the next message there. Each is
// loaded, checked against the model and downscaled to the API's limits
// (agent/images) when it is attached, so a bad file or a model without
// vision is reported at once, before anything is sent.

const imageHelp = `  /image FILE    attach an image (PNG, JPEG, GIF, WebP) to the next message;
                 /image lists the attached ones, /image clear drops them
`

// addImageFlag registers --image.
func addImageFlag(fs *pflag.FlagSet, f *chatFlags) {
	fs.StringArrayVar(&f.images, "image", nil,
		"attach an image file (PNG, JPEG, GIF or WebP) to the message, or to the first one typed; repeatable")
}

// attachFiles attaches the --image files.
func (app *chatApp) attachFiles(paths []string) error {
	for _, p := range paths {
		if err := app.attachImage(p); err != nil {
			return err
		}
	}
	return nil
}

// attachImage loads the image at path (relative to the working directory,
// ~ for the home directory) for the next message and says what it costs.
func (app *chatApp) attachImage(path string) error {
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(home, rest)
		}
	}
	b, err := images.Load(path, provider.ImageLimitsFor(app.providerName()))
	if err != nil {
		return err
	}
	if err := images.Check(app.agent.Model, app.cfg.Vision, []provider.Block{b}); err != nil {
		return err
	}
	app.images = append(app.images, b)
	fmt.Fprintf(app.g.stderr, "attached %s\n", images.Describe(b, app.agent.Model))
	return nil
}

func (app *chatApp) providerName() string {
	if app.agent.Provider == nil {
		return ""
	}
	return app.agent.Provider.Name()
}

// run runs msg with the attached images, which it uses up; refused for a
// model without vision, they stay attached for after a /model switch.
func (app *chatApp) run(ctx context.Context, msg string) (*agent.TurnResult, error) {
	in := agent.Input{Text: msg, Images: app.images}
	res, err := app.agent.RunInput(ctx, app.session, in)
	if nv := (*provider.NoVisionError)(nil); len(in.Images) > 0 && errors.As(err, &nv) {
		return res, fmt.Errorf("%w\n(the %d attached image(s) stay attached; /image clear drops them)", err, len(in.Images))
	}
	app.images = nil
	return res, err
}

// imageCommand is /image: FILE attaches, no argument lists, clear drops.
func (app *chatApp) imageCommand(arg string) {
	w := app.g.stderr
	switch arg {
	case "":
		if len(app.images) == 0 {
			fmt.Fprintln(w, "no images attached; /image FILE attaches one to the next message")
		}
		for _, b := range app.images {
			fmt.Fprintf(w, "attached %s\n", images.Describe(b, app.agent.Model))
		}
	case "clear":
		fmt.Fprintf(w, "dropped %d attached image(s)\n", len(app.images))
		app.images = nil
	default:
		if err := app.attachImage(arg); err != nil {
			fmt.Fprintln(w, "image:", err)
		}
	}
}
