package shellcmd

import (
	"fmt"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
)

// systemDirs are top-level directories whose recursive removal, chmod or
// chown breaks the system.
var systemDirs = map[string]bool{
	"bin": true, "boot": true, "dev": true, "etc": true, "home": true, "lib": true,
	"lib32": true, "lib64": true, "libx32": true, "opt": true, "proc": true, "root": true,
	"run": true, "sbin": true, "srv": true, "sys": true, "usr": true, "var": true,
	"Applications": true, "Library": true, "System": true, "Users": true, "Volumes": true,
}

// blockDevice matches disks and partitions (and raw memory).
var blockDevice = regexp.MustCompile(`^/dev/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md|dm-|loop|sr|mapper/)|^/dev/(mem|kmem|port)$`)

// privilegeCommands run something as another user.
var privilegeCommands = map[string]bool{"sudo": true, "su": true, "doas": true, "pkexec": true, "run0": true}

// powerCommands stop or restart the machine.
var powerCommands = map[string]bool{"shutdown": true, "reboot": true, "halt": true, "poweroff": true}

// diskCommands format or repartition disks.
var diskCommands = map[string]bool{
	"mke2fs": true, "mkswap": true, "wipefs": true, "fdisk": true, "sfdisk": true,
	"cfdisk": true, "gdisk": true, "sgdisk": true, "parted": true, "newfs": true,
}

// Danger returns why the command line must not run, or "": the danger
// list (see the package doc). A script that assigns literals to variables
// is judged a second time with them substituted (`x=/; rm -rf $x`).
func (s *Script) Danger() string {
	if why := scriptDanger(s); why != "" || s.expanded == nil {
		return why
	}
	return scriptDanger(s.expanded)
}

func scriptDanger(s *Script) string {
	if len(s.forkBombs) > 0 {
		return fmt.Sprintf("function %q is a fork bomb (it calls itself in a pipe or in the background)", s.forkBombs[0])
	}
	if s.remoteShell != "" {
		return fmt.Sprintf("%s runs a downloaded script unseen; download it to a file and read it first", s.remoteShell)
	}
	for _, r := range s.redirects {
		if r.Writes() && blockDevice.MatchString(r.Target) {
			return fmt.Sprintf("redirection %s %s writes to a raw disk device", r.Op, r.Target)
		}
	}
	for _, c := range s.cmds {
		if why := commandDanger(c); why != "" {
			return fmt.Sprintf("%s: %s", clipText(c.String(), 120), why)
		}
	}
	return ""
}

// commandDanger judges one simple command.
func commandDanger(c SimpleCommand) string {
	name := c.Name()
	args := c.Args[1:]
	for _, w := range c.Wrappers {
		if privilegeCommands[w] {
			return "runs a command as another user; the agent never escalates privileges"
		}
	}
	switch {
	case privilegeCommands[name]:
		return "runs a command as another user; the agent never escalates privileges"
	case powerCommands[name] || name == "telinit" || (name == "init" && len(args) > 0):
		return "shuts down or restarts the machine"
	case name == "systemctl" && hasAny(args, "poweroff", "reboot", "halt", "kexec", "emergency", "rescue", "suspend", "hibernate"):
		return "shuts down or restarts the machine"
	case strings.HasPrefix(name, "mkfs") || diskCommands[name]:
		return "formats or repartitions a disk"
	case name == "dd":
		return ddDanger(args)
	case name == "rm":
		return rmDanger(args)
	case name == "chmod" || name == "chown" || name == "chgrp":
		return chmodDanger(name, args)
	case name == "kill":
		return killDanger(args)
	case name == "mv":
		if ops := operands(args); len(ops) > 1 {
			if t := firstCatastrophic(ops[:len(ops)-1]); t != "" {
				return fmt.Sprintf("moves %s away", t)
			}
		}
	case name == "find":
		return findDanger(args)
	case isExpansion(name):
		// `$(echo rm) -rf /`, `$RM -rf /usr`: the program is only known
		// at run time, so its arguments are judged as rm's would be.
		if hasFlag(args, 'r', 'R', "--recursive") {
			if t := firstCatastrophic(operands(args)); t != "" {
				return fmt.Sprintf("the command is only known at run time and its arguments recursively target %s", t)
			}
		}
	case name == "shred" || name == "tee" || name == "cp" || name == "truncate" || name == "install":
		for _, a := range args {
			if blockDevice.MatchString(a) {
				return fmt.Sprintf("writes to the raw disk device %s", a)
			}
		}
	}
	return ""
}

func ddDanger(args []string) string {
	for _, a := range args {
		if t, ok := strings.CutPrefix(a, "of="); ok && blockDevice.MatchString(t) {
			return fmt.Sprintf("writes to the device %s", t)
		}
	}
	for _, a := range args {
		if strings.HasPrefix(a, "if=") {
			return "dd copies raw blocks; use cp, head or truncate for ordinary files"
		}
	}
	return ""
}

func rmDanger(args []string) string {
	if slices.Contains(args, "--no-preserve-root") {
		return "--no-preserve-root removes the root file system"
	}
	if !hasFlag(args, 'r', 'R', "--recursive") {
		return ""
	}
	if t := firstCatastrophic(operands(args)); t != "" {
		return fmt.Sprintf("recursively removes %s", t)
	}
	return ""
}

func chmodDanger(name string, args []string) string {
	if !hasFlag(args, 'R', 0, "--recursive") {
		return ""
	}
	ops := operands(args)
	if len(ops) > 1 {
		ops = ops[1:] // the mode or owner comes first
	}
	if t := firstCatastrophic(ops); t != "" {
		return fmt.Sprintf("recursively changes %s of %s", map[string]string{"chmod": "the permissions", "chown": "the owner", "chgrp": "the group"}[name], t)
	}
	return ""
}

// killDanger refuses signalling every process (`kill -9 -1`): -1 is a
// target when it is not the first argument (where it means SIGHUP).
func killDanger(args []string) string {
	for i, a := range args {
		if a != "-1" || i == 0 {
			continue
		}
		if prev := args[i-1]; prev == "-s" || prev == "-n" {
			continue
		}
		return "signals every process the user owns"
	}
	return ""
}

func findDanger(args []string) string {
	var roots []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") || a == "!" || a == "(" {
			break
		}
		roots = append(roots, a)
	}
	t := firstCatastrophic(roots)
	if t == "" {
		return ""
	}
	if slices.Contains(args, "-delete") {
		return fmt.Sprintf("deletes everything found under %s", t)
	}
	for _, r := range findExecs(args) {
		if n := path.Base(args[r[0]]); n == "rm" || n == "shred" || n == "chmod" || n == "chown" {
			return fmt.Sprintf("runs %s on everything found under %s", n, t)
		}
	}
	return ""
}

// firstCatastrophic returns the first target that is the root, a
// top-level system directory, a glob over either, or a home directory —
// also once its run-time expansions come out empty (`"$DIR/"*` with DIR
// unset is `/*`).
func firstCatastrophic(targets []string) string {
	for _, t := range targets {
		if isCatastrophicTarget(t) {
			return t
		}
		if e := emptyExpansions(t); e != t && isCatastrophicTarget(e) {
			return fmt.Sprintf("%s (%s when the expansion is empty)", t, e)
		}
	}
	return ""
}

// expansionRE matches the run-time expansions a parsed word keeps as
// written: $NAME, ${...}, $(...) (one level of nested parentheses), $1,
// $@ and the like, and backquotes.
var expansionRE = regexp.MustCompile(`\$\{[^}]*\}|\$\((?:[^()]|\([^()]*\))*\)|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9@*#?$!-]|` + "`[^`]*`")

// emptyExpansions is t with every run-time expansion replaced by nothing.
func emptyExpansions(t string) string { return expansionRE.ReplaceAllString(t, "") }

// isExpansion reports a word that starts with a run-time expansion.
func isExpansion(w string) bool { return strings.HasPrefix(w, "$") || strings.HasPrefix(w, "`") }

func isCatastrophicTarget(t string) bool {
	t = strings.TrimSpace(t)
	for _, home := range []string{"${HOME}", "$HOME"} {
		if rest, ok := strings.CutPrefix(t, home); ok && (rest == "" || rest[0] == '/') {
			t = "~" + rest
		}
	}
	if strings.HasPrefix(t, "~") {
		// ~, ~/, ~/*, ~user: a home directory or everything in it.
		_, rest, _ := strings.Cut(t, "/")
		clean := path.Clean("/" + rest)
		return clean == "/" || (path.Dir(clean) == "/" && isGlob(path.Base(clean)))
	}
	if !strings.HasPrefix(t, "/") {
		return false
	}
	clean := path.Clean(t)
	if home := os.Getenv("HOME"); home != "" && path.IsAbs(home) {
		if h := path.Clean(home); clean == h || (path.Dir(clean) == h && isGlob(path.Base(clean))) {
			return true
		}
	}
	switch dir := path.Dir(clean); {
	case clean == "/":
		return true
	case dir == "/":
		return systemDirs[path.Base(clean)] || isGlob(path.Base(clean))
	case path.Dir(dir) == "/":
		return systemDirs[path.Base(dir)] && isGlob(path.Base(clean))
	}
	return false
}

func isGlob(s string) bool { return strings.ContainsAny(s, "*?[") }

// operands returns the arguments that are not options (everything after
// "--" counts as an operand).
func operands(args []string) []string {
	var out []string
	for i, a := range args {
		if a == "--" {
			return append(out, args[i+1:]...)
		}
		if len(a) > 1 && a[0] == '-' {
			continue
		}
		out = append(out, a)
	}
	return out
}

// hasFlag reports a short flag (alone or combined, "-rf") or a long flag
// before "--".
func hasFlag(args []string, short, short2 byte, long string) bool {
	for _, a := range args {
		switch {
		case a == "--":
			return false
		case a == long:
			return true
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			if strings.IndexByte(a[1:], short) >= 0 || (short2 != 0 && strings.IndexByte(a[1:], short2) >= 0) {
				return true
			}
		}
	}
	return false
}

func hasAny(args []string, want ...string) bool {
	for _, a := range args {
		if slices.Contains(want, a) {
			return true
		}
	}
	return false
}
