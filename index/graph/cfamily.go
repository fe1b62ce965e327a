package graph

import (
	"path"
	"strings"
)

// resolveC resolves an #include: relative to the including file's
// directory, then to the workspace root, then to the file whose path ends
// in "/"+include that is closest to the includer (covers -I include dirs;
// among equally close files, one under an include/ directory wins).
// Headers not found are external when they look like system headers.
func (ix *index) resolveC(f *node, p string) target {
	p = strings.Trim(p, "<>\" ")
	if p == "" {
		return target{}
	}
	if strings.HasPrefix(p, "/") {
		return target{ext: true}
	}
	if q, ok := joinRel(dirOf(f.Path), p); ok && ix.isFile(q) {
		return fileTarget(q)
	}
	// Strip leading "../" for the root-relative and suffix searches: an
	// include that climbs out of the file's directory often names a header
	// under some include directory.
	rel := path.Clean(p)
	for strings.HasPrefix(rel, "../") {
		rel = rel[3:]
	}
	if rel == ".." || rel == "." {
		return target{}
	}
	if ix.isFile(rel) {
		return fileTarget(rel)
	}
	inInclude := func(c string) bool {
		return strings.HasSuffix(c, "include/"+rel) || strings.Contains(c, "/include/")
	}
	if hit := closestPrefer(f.Path, ix.withSuffix(rel), inInclude); hit != "" {
		return fileTarget(hit)
	}
	return target{ext: isSystemHeader(p)}
}

// isSystemHeader guesses whether an include names a C/C++ standard, POSIX
// or platform header.
func isSystemHeader(p string) bool {
	if path.Ext(p) == "" {
		return true // <vector>, <cstdio>
	}
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return cSysDirs[p[:i]]
	}
	return cSysHeaders[strings.TrimSuffix(p, ".h")]
}

var cSysDirs = setOf(
	"sys", "bits", "linux", "asm", "asm-generic", "arpa", "net", "netinet",
	"netinet6", "mach", "machine", "gnu", "security", "libkern", "os",
	"CoreFoundation", "Foundation", "Cocoa", "UIKit", "IOKit", "boost",
	"openssl", "gtest", "gmock", "glib", "gtk", "GL", "X11", "llvm", "clang",
	"xen", "mach-o", "dispatch", "uapi", "rpc", "scsi", "sound", "video",
)

var cSysHeaders = setOf(
	"assert", "complex", "ctype", "errno", "fenv", "float", "inttypes",
	"iso646", "limits", "locale", "math", "setjmp", "signal", "stdalign",
	"stdarg", "stdatomic", "stdbool", "stddef", "stdint", "stdio", "stdlib",
	"stdnoreturn", "string", "tgmath", "threads", "time", "uchar", "wchar",
	"wctype", "unistd", "fcntl", "dirent", "dlfcn", "pthread", "sched",
	"semaphore", "poll", "termios", "syslog", "pwd", "grp", "netdb",
	"strings", "alloca", "malloc", "getopt", "regex", "glob", "fnmatch",
	"libgen", "spawn", "utime", "ifaddrs", "endian", "byteswap", "execinfo",
	"windows", "winsock2", "ws2tcpip", "io", "direct", "process", "intrin",
	"immintrin", "emmintrin", "xmmintrin", "arm_neon", "zlib", "omp", "mpi",
	"Python", "jni", "features", "link", "elf", "stdc-predef",
)
