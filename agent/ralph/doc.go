// Package ralph runs autonomous agent loops defined by a RALPH.md file,
// compatible with Ralphify's format: YAML frontmatter (agent, commands,
// args, credit) over a prompt template with {{ commands.NAME }},
// {{ args.NAME }} and {{ ralph.name|iteration|max_iterations }}
// placeholders.
//
// Each iteration re-reads RALPH.md, runs its commands, resolves the
// placeholders in one pass (a value inserted by one placeholder is never
// read as another; unknown names become empty), and hands the prompt to
// an Agent with a fresh context: parley's own agent in-process or the
// external command the frontmatter names, reading the prompt on stdin.
// What happens is reported as Events (JSON lines or a console view).
//
// Contracts: commands are split into words like a shell would
// (mvdan.cc/sh/v3) and run without a shell; a run starting with "./" is
// a path relative to the ralph's directory, everything else runs in the
// project directory. Every child (commands, external agent) runs in its
// own process group; a timeout or a cancelled context sends SIGTERM to the
// group, then SIGKILL after KillGrace, so nothing is left running.
// Loop.Stop lets the current iteration finish; cancelling the context
// stops at once.
package ralph
