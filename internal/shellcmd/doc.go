// Package shellcmd reads bash command lines the way the agent's shell tool
// and the permission policy need them: as the list of simple commands they
// run, and as a verdict against the danger list.
//
// Command lines are judged on their syntax tree (mvdan.cc/sh/v3), never on
// the raw string: quoting (`"rm" -rf "/"`, `\rm`, `$'\x72m'`), env
// prefixes, wrappers (env, nice, timeout, xargs, ...), nested scripts
// (`sh -c '...'`, `eval`, a here document or `echo ... |` fed to a shell),
// command substitutions and functions all reduce to the same list of
// simple commands. The permission rules match that list (Commands); the
// shell tool refuses what Danger reports.
//
// The danger list holds commands the shell tool refuses whatever the
// permission mode, because one mistake by the model would destroy the
// machine rather than the workspace: recursive removal, chmod or chown of
// the root, a system directory or a home directory, disk formatting and raw
// device writes, privilege escalation, shutdown, fork bombs, and downloads
// run as scripts unseen. It is a safety net, not a sandbox: a script file or
// a downloaded binary can still do anything the user can.
//
// Contracts: Parse never runs anything; model-supplied lines reach it, and
// FuzzShellDanger checks that it does not panic and that a refusal survives
// wrapping (sudo, a subshell, sh -c). A Script is immutable and safe for
// concurrent use.
package shellcmd
