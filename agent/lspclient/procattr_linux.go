//go:build linux

package lspclient

import "syscall"

// procAttr starts a server in a process group of its own (its children
// are stopped with it) that the kernel kills should parley die without
// stopping it: an editor that kills `parley serve` must not leave gopls
// behind.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
