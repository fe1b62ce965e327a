package acp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/coder/acp-go-sdk"
	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/mentions"
)

// fileLinks are the prompt's resource links to file:// URIs (how Zed
// sends an @-mentioned file), as file mentions of their paths.
func fileLinks(blocks []sdk.ContentBlock) []mentions.Mention {
	var out []mentions.Mention
	for _, b := range blocks {
		if l := b.ResourceLink; l != nil && strings.HasPrefix(l.Uri, "file://") {
			out = append(out, mentions.Mention{Kind: mentions.KindFile, Text: l.Uri, Path: uri.URI(l.Uri).FsPath()})
		}
	}
	return out
}

// withLinks appends the linked files to msg, read as a file mention is
// (package mentions: the turn's read_file, so the client's buffers, the
// permission policy and the re-read ledger apply). A link that cannot be
// read (outside the roots, refused) stays named only, and the client is
// told why.
func (ss *session) withLinks(ctx context.Context, a *agent.Agent, msg string, links []mentions.Mention) string {
	if len(links) == 0 {
		return msg
	}
	r := &mentions.Resolver{Tools: mentions.Tools{Agent: a, Session: ss.s}}
	extra, reports := r.Expand(ctx, "", links)
	for _, rep := range reports {
		if rep.Error != "" {
			ss.update(ctx, sdk.UpdateAgentMessageText(fmt.Sprintf("parley: %s not read: %s\n", rep.Text, rep.Error)))
		}
	}
	return msg + extra
}
