package index

import (
	"runtime"
	"testing"
)

func TestUseAt(t *testing.T) {
	for _, c := range []struct {
		src  string
		want Use
	}{
		{"x := F", Use{}},
		{"x := pkg.F", Use{Selector: true, Qualifier: "pkg"}},
		{"pkg.\n\tF", Use{Selector: true, Qualifier: "pkg"}},
		{"f().F", Use{Selector: true}},
		{"a[1].F", Use{Selector: true}},
		{"héllo.F", Use{Selector: true, Qualifier: "héllo"}},
		{"1.F", Use{Selector: true}},
	} {
		// The offset is inside the last identifier, as an editor's cursor.
		off := len(c.src) - 1
		if got := UseAt([]byte(c.src), off); got != c.want {
			t.Errorf("UseAt(%q) = %+v, want %+v", c.src, got, c.want)
		}
	}
	if got := UseAt([]byte("x"), 5); got != (Use{}) {
		t.Errorf("offset past the end: %+v", got)
	}
}

func TestGoImportName(t *testing.T) {
	for _, c := range []struct{ path, explicit, want string }{
		{"net/http", "", "http"},
		{"fmt", "", "fmt"},
		{"net/http", "h", "h"},
		{"math/rand/v2", "", "rand"},
		{"gopkg.in/yaml.v3", "", "yaml"},
		{"github.com/mattn/go-isatty", "", "isatty"},
		{"example.com/m/v2x", "", "v2x"},
		{"strings", ".", "."},
	} {
		if got := goImportName(c.path, c.explicit); got != c.want {
			t.Errorf("goImportName(%q, %q) = %q, want %q", c.path, c.explicit, got, c.want)
		}
	}
}

func TestGoBuildsWith(t *testing.T) {
	for _, c := range []struct {
		from, target string
		want         bool
	}{
		{"syscall/zsyscall_linux_riscv64.go", "syscall/syscall_linux.go", true},
		{"syscall/zsyscall_linux_riscv64.go", "syscall/dll_windows.go", false},
		{"syscall/zsyscall_linux_riscv64.go", "syscall/zsyscall_linux_amd64.go", false},
		{"syscall/zsyscall_linux_riscv64.go", "syscall/syscall.go", true},
		{"os/file_android.go", "os/file_linux.go", true},
		{"os/exec_windows.go", "os/exec_posix_test.go", true},
		{"os/a_" + runtime.GOOS + ".go", "os/b_" + runtime.GOARCH + ".go", true},
	} {
		if got := PortOf(c.from, "").Admits(c.target, ""); got != c.want {
			t.Errorf("portOf(%s).admits(%s) = %v, want %v", c.from, c.target, got, c.want)
		}
	}
	for _, c := range []struct {
		file, build string
		want        GoPort
	}{
		{"a/x.go", "", hostPort},
		{"a/x.go", "freebsd || netbsd", GoPort{"freebsd", "386"}},
		{"a/x.go", "plan9", GoPort{"plan9", "386"}},
		{"a/x_plan9.go", "arm", GoPort{"plan9", "arm"}},
		{"a/x.go", "js && wasm", GoPort{"js", "wasm"}},
		// Unsatisfiable: the host's, like a file no build has.
		{"a/x.go", "linux && windows", hostPort},
	} {
		if got := PortOf(c.file, c.build); got != c.want {
			t.Errorf("portOf(%s, %q) = %v, want %v", c.file, c.build, got, c.want)
		}
	}
	linux, android := GoPort{"linux", "amd64"}, GoPort{"android", "arm64"}
	for _, c := range []struct {
		port        GoPort
		file, build string
		want        bool
	}{
		{linux, "a/x.go", "unix && !windows", true},
		{linux, "a/x.go", "go1.21", true},
		{linux, "a/x.go", "goexperiment.jsonv2", false},
		{linux, "a/x.go", "goexperiment.regabiargs", true},
		{GoPort{"linux", "386"}, "a/x.go", "goexperiment.regabiargs", false},
		{linux, "a/x.go", "gc && !purego", true},
		{linux, "a/x_android.go", "", false},
		{android, "a/x_linux.go", "", true},
		{android, "a/x.go", "linux && arm64", true},
		{android, "a/x.go", "cgo", android == hostPort},
		{linux, "a/x.go", "not a constraint(", true},
	} {
		if got := c.port.Admits(c.file, c.build); got != c.want {
			t.Errorf("%v admits(%s, %q) = %v, want %v", c.port, c.file, c.build, got, c.want)
		}
	}
	if os, arch := goFileTarget("x/zerrors_linux_mips64le_test.go"); os != "linux" || arch != "mips64le" {
		t.Errorf("goFileTarget = %s %s", os, arch)
	}
	if os, arch := goFileTarget("linux.go"); os != "" || arch != "" {
		t.Errorf("a file named after an OS alone has no constraint; got %s %s", os, arch)
	}
}
