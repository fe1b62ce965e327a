package agent

import (
	"fmt"
	"strings"

	"github.com/parleyhq/parley/agent/provider"
)

// Clipping is the last resort of the recovery from a context overflow:
// when masking and summarising the old messages did not bring the prompt
// under the threshold (the last exchange alone is too big: one huge tool
// result, or many at once), the largest tool results are cut to their
// first lines, with a note saying so and how to get the rest, and the
// call is tried once more. A cut result keeps its call and its error
// flag, so the history stays valid.

const (
	// clipMinTokens: no result is cut below this; one that small is not
	// what overflows a window.
	clipMinTokens = 256
	// maxClips bounds the cutting of one overflow (each round cuts the
	// largest result left).
	maxClips = 32
)

// clipNote starts the note that ends a cut result; a result carrying it
// is never cut again.
const clipNote = "[cut by parley: this result was about "

// upper is the larger of the raw and the calibrated estimate of the
// prompt. The model has just refused the prompt, so a calibration that
// shrinks counts (a provider reporting less than was counted, for a small
// prompt) is not to be trusted here.
func (c *compactor) upper() int {
	tc := c.s.counter(c.a.Model)
	raw := tc.raw(c.a.SystemPrompt, c.specs, c.s.Messages)
	return max(raw, tc.scale(raw))
}

// clipTarget is the prompt size a clipping aims at: the threshold, or
// half the current size when the model refused a prompt that should fit
// (the window is smaller than the agent was told).
func (c *compactor) clipTarget() int {
	at, est := c.a.compactAt(), c.upper()
	if est <= at {
		return est / 2
	}
	return at
}

// clip cuts the largest tool results of the history until its estimate is
// at most target, and returns how many it cut.
func (c *compactor) clip(target int) int {
	tc := c.s.counter(c.a.Model)
	msgs := c.s.Messages
	clipped := 0
	for range maxClips {
		est := c.upper()
		if est <= target {
			break
		}
		var big *provider.Block
		bigTokens := clipMinTokens
		for i := range msgs {
			for j := range msgs[i].Blocks {
				b := &msgs[i].Blocks[j]
				if b.Kind != provider.BlockToolResult || strings.Contains(b.Text, clipNote) {
					continue
				}
				if n := tc.count(b.Text); n > bigTokens {
					big, bigTokens = b, n
				}
			}
		}
		if big == nil {
			break
		}
		// upper is at least the raw count, so est-target raw tokens
		// removed are enough.
		big.Text = clipText(big.Text, max(bigTokens-(est-target), clipMinTokens), bigTokens, tc.count)
		tc.reset()
		clipped++
	}
	return clipped
}

// clipText keeps text's first whole lines within keep tokens (counted by
// count), note included. total is text's size in tokens.
func clipText(text string, keep, total int, count func(string) int) string {
	lines := strings.SplitAfter(text, "\n")
	note := func(shown int) string {
		return fmt.Sprintf("\n%s%d tokens, more than fits the model's context window; its first %d of %d lines are above. "+
			"Ask for less at a time to see the rest: a line range of read_file (after the last line shown), grep, or a command with narrower output.]",
			clipNote, total, shown, len(lines))
	}
	budget := keep - count(note(len(lines)))
	var b strings.Builder
	used, shown := 0, 0
	for _, l := range lines {
		n := count(l)
		if used+n > budget {
			if shown == 0 {
				// One line longer than the budget: its start, by bytes
				// (a token is at least one byte, usually about four).
				cut := min(len(l), max(budget, 0)*3)
				b.WriteString(strings.ToValidUTF8(l[:cut], ""))
			}
			break
		}
		b.WriteString(l)
		used += n
		shown++
	}
	return strings.TrimRight(b.String(), "\n") + note(shown)
}
