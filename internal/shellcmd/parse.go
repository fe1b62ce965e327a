package shellcmd

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxShellNesting bounds sh -c / eval / here-document nesting; deeper
// nesting is refused as unparseable rather than followed.
const maxShellNesting = 8

// SimpleCommand is one simple command of a shell command line, as the shell
// would run it, with quoting removed.
type SimpleCommand struct {
	// Words is the argv as written (wrappers included), quoting removed.
	// A word that is not a literal keeps its source text ("$HOME",
	// "$(date)") and sets Dynamic.
	Words []string
	// Args is the effective command: Words without the leading wrapper
	// commands (env, nice, timeout, nohup, xargs, ...). It is a suffix of
	// Words and never empty.
	Args []string
	// Wrappers names the stripped wrapper commands, outermost first (for
	// a nested script's commands, starting with those of the command that
	// runs it).
	Wrappers []string
	// Assigns are the NAME=value prefix assignments (`FOO=1 cmd`); those
	// made through env stay in Words. Commands of a nested script also
	// carry the assignments of the command that runs it.
	Assigns []string
	// Redirects are the command's redirections, including those of
	// compound commands and `sh -c` calls around it.
	Redirects []Redirect
	// Dynamic is set when some word depends on run-time expansion.
	Dynamic bool
	// Depth counts the sh -c / eval levels the command was found under.
	Depth int
}

// Name is the base name of the effective command ("rm" for "/bin/rm").
func (c SimpleCommand) Name() string {
	if len(c.Args) == 0 {
		return ""
	}
	return path.Base(c.Args[0])
}

// String is the normalised command: assignments, then the words, separated
// by single spaces. Permission rules match against it.
func (c SimpleCommand) String() string {
	return strings.Join(append(append([]string(nil), c.Assigns...), c.Words...), " ")
}

// Effective is the effective command (Args) as one normalised string.
func (c SimpleCommand) Effective() string { return strings.Join(c.Args, " ") }

// Redirect is one file redirection ("> out.txt").
type Redirect struct {
	Op      string // ">", ">>", "<", "&>", ...
	Target  string // the file, quoting removed (source text if Dynamic)
	Dynamic bool
}

// Writes reports whether the redirection opens its target for writing.
func (r Redirect) Writes() bool { return r.Op != "<" && r.Op != "<&" }

// Script is a parsed command line: its simple commands and what the
// danger check needs.
type Script struct {
	cmds      []SimpleCommand
	redirects []Redirect // every file redirection, compound commands' too
	forkBombs []string   // functions that call themselves piped or in background
	// remoteShell notes a download run as a script unseen: piped into a
	// shell, or given to one (or to source, ., eval) as a substitution.
	remoteShell string
	// vars holds the literal values the script assigns to shell variables
	// (`x=/`, `export x=/`), the latest in source order; an assignment
	// whose value is not literal forgets the variable.
	vars map[string]string
	// expandVars substitutes vars into words ($x, ${x}).
	expandVars bool
	// expanded is the script parsed again with expandVars, when it
	// assigns literals; the danger check judges both readings.
	expanded *Script
}

// Parse parses a bash command line. A syntax error, or nesting deeper
// than 8 levels of sh -c, eval or here documents, is an error.
func Parse(cmdline string) (*Script, error) {
	s := &Script{}
	if err := s.parse(cmdline, 0, nil); err != nil {
		return nil, err
	}
	if len(s.vars) > 0 {
		e := &Script{expandVars: true}
		if e.parse(cmdline, 0, nil) == nil {
			s.expanded = e
		}
	}
	return s, nil
}

// Commands returns every simple command the line runs, in source order,
// descending into subshells, command substitutions, function bodies,
// pipelines and lists, and into the script of `sh -c`, `bash -c`, `eval`,
// here documents and echo/printf piped into a shell. Pure assignments
// (`FOO=1`) are not commands. The slice is the Script's; do not modify it.
func (s *Script) Commands() []SimpleCommand { return s.cmds }

// scriptParser resolves the words of one (possibly nested) script.
type scriptParser struct {
	s          *Script
	src        string
	depth      int
	positional []string // $0, $1, ... of a `sh -c script $0 $1` call
}

func (s *Script) parse(src string, depth int, positional []string) error {
	if depth > maxShellNesting {
		return errors.New("shell command nests sh -c / eval too deeply")
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		if depth > 0 {
			return fmt.Errorf("parse nested script %q: %w", clipText(src, 80), err)
		}
		return fmt.Errorf("parse shell command: %w", err)
	}
	p := &scriptParser{s: s, src: src, depth: depth, positional: positional}
	return p.walk(f)
}

// walk visits the whole tree; syntax.Walk reaches command substitutions,
// process substitutions and function bodies through the words. The
// redirections of a compound command (`{ a; b; } > f`) are given to every
// simple command inside it; syntax.Walk's closing f(nil) call marks where
// a subtree ends.
func (p *scriptParser) walk(f *syntax.File) error {
	var err error
	seenPipe := map[*syntax.BinaryCmd]bool{}
	type frame struct {
		redirs []Redirect // of a compound command, applied to its commands
		start  int        // first command recorded inside it
	}
	var stack []frame
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			fr := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for i := fr.start; len(fr.redirs) > 0 && i < len(p.s.cmds); i++ {
				p.s.cmds[i].Redirects = slices.Concat(p.s.cmds[i].Redirects, fr.redirs)
			}
			return true
		}
		if err != nil {
			return false
		}
		fr := frame{start: len(p.s.cmds)}
		switch n := n.(type) {
		case *syntax.Stmt:
			redirs := p.redirects(n.Redirs)
			p.s.redirects = append(p.s.redirects, redirs...)
			call, ok := n.Cmd.(*syntax.CallExpr)
			switch {
			case ok && len(call.Args) > 0:
				err = p.call(call, redirs, p.stdinScript(call, n.Redirs))
				fr.start = len(p.s.cmds) // the call's own redirections are set
			case ok:
				p.recordVars(call.Assigns) // x=/ on its own sets a shell variable
			default:
				if decl, isDecl := n.Cmd.(*syntax.DeclClause); isDecl {
					p.recordVars(decl.Args) // export x=/, local x=/, ...
				}
				fr.redirs = redirs
			}
		case *syntax.BinaryCmd:
			if (n.Op == syntax.Pipe || n.Op == syntax.PipeAll) && !seenPipe[n] {
				err = p.pipeline(n, seenPipe)
			}
		case *syntax.FuncDecl:
			if n.Name != nil && isForkBomb(n) {
				p.s.forkBombs = append(p.s.forkBombs, n.Name.Value)
			}
		}
		if err != nil {
			return false
		}
		stack = append(stack, fr)
		return true
	})
	return err
}

// call records one simple command and descends into the scripts it runs.
// stdin is a literal script fed to the command's standard input (a here
// document), or "".
func (p *scriptParser) call(call *syntax.CallExpr, redirs []Redirect, stdin string) error {
	var assigns []string
	dynamic := false
	for _, a := range call.Assigns {
		v, dyn := p.assign(a)
		assigns = append(assigns, v)
		dynamic = dynamic || dyn
	}
	words, dyn := p.words(call.Args)
	if len(words) == 0 {
		return nil // e.g. an unquoted empty expansion
	}
	return p.command(words, dyn, assigns, redirs, dynamic, stdin)
}

// command strips wrappers from words, records the command, and parses any
// script it runs (sh -c, eval, find -exec, a shell reading stdin). dyn
// flags the words that need run-time expansion.
func (p *scriptParser) command(words []string, dyn []bool, assigns []string, redirs []Redirect, dynamic bool, stdin string) error {
	start, wrappers, envAssigns := stripWrappers(words)
	args, argDyn := words[start:], dyn[start:]
	c := SimpleCommand{
		Words: words, Args: args, Wrappers: wrappers,
		Assigns: assigns, Redirects: redirs,
		Dynamic: dynamic || slices.Contains(dyn, true), Depth: p.depth,
	}
	if len(wrappers) > 0 && wrappers[len(wrappers)-1] == "env -S" && !argDyn[0] {
		script := strings.Join(append([]string{args[0]}, quoteWords(args[1:])...), " ")
		return p.nested(script, nil, c, envAssigns)
	}
	if why := remoteScript(c.Name(), args); why != "" {
		p.s.remoteShell = why
	}
	switch name := c.Name(); {
	case isShellName(name):
		inv := shellInvocation(args)
		switch {
		case inv.script > 0 && !argDyn[inv.script]:
			return p.nested(args[inv.script], args[inv.script+1:], c, envAssigns)
		case inv.stdin && stdin != "":
			p.s.cmds = append(p.s.cmds, c)
			return p.nested(stdin, nil, c, envAssigns)
		}
	case name == "eval" && len(args) > 1 && !c.Dynamic:
		return p.nested(strings.Join(args[1:], " "), nil, c, envAssigns)
	case name == "find":
		p.s.cmds = append(p.s.cmds, c)
		for _, r := range findExecs(args) {
			if err := p.command(args[r[0]:r[1]], argDyn[r[0]:r[1]], nil, nil, c.Dynamic, ""); err != nil {
				return err
			}
		}
		return nil
	}
	p.s.cmds = append(p.s.cmds, c)
	return nil
}

// recordVars notes the literal values of plain NAME=value assignments
// and forgets variables given any other value.
func (p *scriptParser) recordVars(as []*syntax.Assign) {
	for _, a := range as {
		if a.Name == nil || a.Naked || a.Index != nil || a.Array != nil {
			continue
		}
		if p.s.vars == nil {
			p.s.vars = map[string]string{}
		}
		v, dyn := "", false
		if a.Value != nil {
			v, dyn = p.parts(a.Value.Parts, false)
		}
		if dyn || a.Append {
			delete(p.s.vars, a.Name.Value)
			continue
		}
		p.s.vars[a.Name.Value] = v
	}
}

// nested parses a script that the command c runs (sh -c, eval, env -S, a
// here document). c's assignments (env's included), wrappers and
// redirections apply to the script's commands too, so they inherit them.
func (p *scriptParser) nested(script string, positional []string, c SimpleCommand, envAssigns []string) error {
	start := len(p.s.cmds)
	if err := p.s.parse(script, p.depth+1, positional); err != nil {
		return err
	}
	for i := start; i < len(p.s.cmds); i++ {
		n := &p.s.cmds[i]
		n.Assigns = slices.Concat(c.Assigns, envAssigns, n.Assigns)
		n.Wrappers = slices.Concat(c.Wrappers, n.Wrappers)
		n.Redirects = slices.Concat(n.Redirects, c.Redirects)
	}
	return nil
}

// pipeline looks at consecutive stages: a shell reading its script from
// the pipe gets that script parsed when the previous stage echoes a
// literal, and is flagged when the previous stage downloads it.
func (p *scriptParser) pipeline(b *syntax.BinaryCmd, seen map[*syntax.BinaryCmd]bool) error {
	stages := pipeStages(b, seen)
	for i := 1; i < len(stages); i++ {
		cur, ok := stages[i].Cmd.(*syntax.CallExpr)
		prev, okPrev := stages[i-1].Cmd.(*syntax.CallExpr)
		if !ok || !okPrev {
			continue
		}
		curWords, _ := p.words(cur.Args)
		start, _, _ := stripWrappers(curWords)
		curArgs := curWords[start:]
		if len(curArgs) == 0 || !isShellName(path.Base(curArgs[0])) || !shellInvocation(curArgs).stdin {
			continue
		}
		prevWords, prevDyn := p.words(prev.Args)
		pstart, _, _ := stripWrappers(prevWords)
		if pstart >= len(prevWords) {
			continue
		}
		switch prevName := path.Base(prevWords[pstart]); prevName {
		case "curl", "wget", "fetch", "aria2c", "http", "lynx":
			p.s.remoteShell = prevName + " | " + path.Base(curArgs[0])
		case "echo", "printf":
			if script, ok := echoedScript(prevWords[pstart:], prevDyn[pstart:]); ok {
				if err := p.s.parse(script, p.depth+1, nil); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// downloadSubst matches a command or process substitution that starts
// with a downloader: $(curl ...), <(wget ...), `curl ...`.
var downloadSubst = regexp.MustCompile("(\\$\\(|<\\(|`)\\s*([^\\s()`]*/)?(curl|wget|fetch|aria2c|http|lynx)(\\s|\\)|`|$)")

// remoteScript describes a shell, source, . or eval that runs the output of
// a download (`sh -c "$(curl ...)"`, `bash <(curl ...)`), or "".
func remoteScript(name string, args []string) string {
	if !isShellName(name) && name != "source" && name != "." && name != "eval" {
		return ""
	}
	for _, a := range args[1:] {
		if downloadSubst.MatchString(a) {
			return name + " " + clipText(a, 60)
		}
	}
	return ""
}

// pipeStages flattens a pipeline into its stages, marking the nested
// BinaryCmds as seen so they are not treated as pipelines of their own.
func pipeStages(b *syntax.BinaryCmd, seen map[*syntax.BinaryCmd]bool) []*syntax.Stmt {
	seen[b] = true
	var out []*syntax.Stmt
	for _, st := range []*syntax.Stmt{b.X, b.Y} {
		if inner, ok := st.Cmd.(*syntax.BinaryCmd); ok && (inner.Op == syntax.Pipe || inner.Op == syntax.PipeAll) && !st.Negated {
			out = append(out, pipeStages(inner, seen)...)
			continue
		}
		out = append(out, st)
	}
	return out
}

// stdinScript returns the literal body of a here document or here string
// given to a shell that reads its script from standard input.
func (p *scriptParser) stdinScript(call *syntax.CallExpr, redirs []*syntax.Redirect) string {
	words, _ := p.words(call.Args)
	start, _, _ := stripWrappers(words)
	args := words[start:]
	if len(args) == 0 || !isShellName(path.Base(args[0])) || !shellInvocation(args).stdin {
		return ""
	}
	for _, r := range redirs {
		var body *syntax.Word
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			body = r.Hdoc
		case syntax.WordHdoc:
			body = r.Word
		}
		if body == nil || len(body.Parts) == 0 {
			continue
		}
		if vals, _ := p.word(body); len(vals) > 0 {
			return strings.Join(vals, " ")
		}
	}
	return ""
}

// redirects resolves file redirections; here documents are not files.
func (p *scriptParser) redirects(rs []*syntax.Redirect) []Redirect {
	var out []Redirect
	for _, r := range rs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			continue
		}
		if r.Word == nil || len(r.Word.Parts) == 0 {
			continue
		}
		vals, dyn := p.word(r.Word)
		target := strings.Join(vals, " ")
		if (r.Op == syntax.DplOut || r.Op == syntax.DplIn) && isFDTarget(target) {
			continue // 2>&1, >&-: a descriptor, not a file
		}
		out = append(out, Redirect{Op: r.Op.String(), Target: target, Dynamic: dyn})
	}
	return out
}

func isFDTarget(t string) bool {
	if t == "-" {
		return true
	}
	t = strings.TrimSuffix(t, "-")
	for _, r := range t {
		if r < '0' || r > '9' {
			return false
		}
	}
	return t != ""
}

// isForkBomb reports a function that calls itself and spawns processes
// (a pipe or a background job) in its body: `:(){ :|:& };:`.
func isForkBomb(f *syntax.FuncDecl) bool {
	name := f.Name.Value
	selfCall, spawns := false, false
	syntax.Walk(f.Body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			if len(n.Args) > 0 && unquoteLit(n.Args[0]) == name {
				selfCall = true
			}
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				spawns = true
			}
		case *syntax.Stmt:
			if n.Background || n.Coprocess || n.Disown {
				spawns = true
			}
		}
		return true
	})
	return selfCall && spawns
}

// unquoteLit resolves a word made of literal and quoted parts only.
func unquoteLit(w *syntax.Word) string {
	p := &scriptParser{}
	vals, dyn := p.word(w)
	if dyn || len(vals) != 1 {
		return ""
	}
	return vals[0]
}

// echoedScript is the text an echo or printf with literal arguments writes.
func echoedScript(args []string, dyn []bool) (string, bool) {
	i := 1
	if path.Base(args[0]) == "echo" {
		for i < len(args) && !dyn[i] && strings.HasPrefix(args[i], "-") && strings.Trim(args[i][1:], "neE") == "" && len(args[i]) > 1 {
			i++
		}
	}
	if slices.Contains(dyn[i:], true) || i >= len(args) {
		return "", false
	}
	s := strings.Join(args[i:], " ")
	return strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace(s), true
}

// quoteWords quotes words so that parsing them again yields the same words.
func quoteWords(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		q, err := syntax.Quote(w, syntax.LangBash)
		if err != nil {
			q = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
		out[i] = q
	}
	return out
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
