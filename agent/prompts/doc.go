// Package prompts runs prompt commands: Markdown files in
// <workspace>/.parley/commands and <user config dir>/parley/commands, in
// the format Claude Code and OpenCode use, which `/NAME args` turns into
// a message for the agent in every front end (parley chat, the editor
// chat, parley acp).
//
// A file's optional YAML front matter gives description, argument-hint,
// model and allowed-tools (other keys are ignored); its body is the
// prompt. A file in a subdirectory gets a namespaced name
// (frontend/review.md is /frontend:review). A workspace command shadows
// a user command of the same name; a name the front end reserves for a
// built-in command is never shadowed (the file is skipped and reported).
//
// Expansion, in this order, so that nothing the user types or a shell
// prints is read as a directive:
//   - shell lines ("!`cmd`" inline, or a line starting with "!") are found
//     in the file's own text, outside fenced code blocks, and run with
//     `sh -c` in the workspace root with the arguments as the shell's
//     positional parameters ($1, "$@") and $ARGUMENTS in the environment,
//     so arguments are never spliced into a command line, and without
//     parley's credentials (tools.SecretEnv). Their output replaces them.
//   - in the rest, $ARGUMENTS becomes the argument text and $1...$9 its
//     words, split like a shell would (quotes respected); arguments
//     neither the text nor a shell line uses are appended as
//     "ARGUMENTS: ...".
//   - @path references (in the text after substitution, so `/explain
//     @a.go` works) name files inside the workspace roots, symlinks
//     resolved; each existing file is attached once, below the prompt,
//     read through the agent's read_file tool when the front end has it
//     (so the read is counted and recorded in the re-read ledger).
//
// Contracts: shell lines of a workspace command run only once the user
// approved exactly those lines for that workspace (parley commands
// approve; the approvals file of package hooks); until then the command
// is refused with a message saying so, and nothing is sent to the model.
// User commands are trusted. allowed-tools only ever narrows the tools
// the model is offered for the turn; it grants no permission. Nothing in
// a command file or in the arguments panics; malformed files are
// reported and skipped. A Set is read-only after Load and safe for
// concurrent use.
package prompts
