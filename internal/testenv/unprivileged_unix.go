//go:build unix

package testenv

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// nobody is the conventional unprivileged uid and gid.
const nobody = 65534

// childEnv marks the re-run, so a child that is somehow still root does
// not recurse.
const childEnv = "PARLEY_TESTENV_UNPRIVILEGED"

// Unprivileged makes a test about file permissions mean something when the
// tests run as root (CI does), since root reads a chmod 0 directory. As
// root it runs the calling top-level test again, alone, in a copy of the
// test binary as uid/gid 65534 with a scratch working directory, reports
// that run's outcome and returns false: the caller returns at once. As any
// other user it returns true and the test goes on.
func Unprivileged(t *testing.T) bool {
	t.Helper()
	if os.Geteuid() != 0 {
		return true
	}
	if os.Getenv(childEnv) != "" {
		t.Fatal("the unprivileged re-run is still root")
	}
	if strings.Contains(t.Name(), "/") {
		t.Fatal("testenv.Unprivileged: call it from a top-level test")
	}
	dir, err := os.MkdirTemp("", "parley-unprivileged-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "test.bin")
	if err := copyExecutable(bin); err != nil {
		t.Fatalf("copy the test binary: %v", err)
	}
	cmd := exec.Command(bin, "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.count=1", "-test.v")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), childEnv+"=1", "TMPDIR="+dir, "HOME="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("re-run as uid %d: %v\n%s", nobody, err, out)
	}
	if !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("re-run as uid %d did not pass:\n%s", nobody, out)
	}
	t.Logf("passed as uid %d", nobody)
	return false
}

func copyExecutable(dst string) error {
	src, err := os.Executable()
	if err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
