//go:build !linux

package lspclient

import "syscall"

// procAttr starts a server in a process group of its own (its children
// are stopped with it).
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
