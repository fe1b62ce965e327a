package ledger

import (
	"strings"
	"testing"
)

// cppBodies finds the bodies of C++ functions by their braces, whatever
// the grammar made of them (no symbols are given here): template heads
// holding a macro, trailing return types, initializer lists on lines of
// their own, bodies alone on a line under their header, in both branches
// of a conditional, and a function returning a struct; the members of
// classes, namespaces, enums and data tables are no bodies. A #define's
// continuation lines go like a body, and so do the value after a "="
// ending a declaration's line and the branch of a Doxygen conditional
// that no build compiles.
func TestCppBodies(t *testing.T) {
	src := `#ifndef PARLEY_TEST_H_
#define PARLEY_TEST_H_

#define PARLEY_RETRY(result, expression)            \
  do {                                              \
    (result) = (expression);                        \
  } while ((result) == -1 && errno == EINTR)

namespace parley {
namespace detail {

template <typename Char, PARLEY_ENABLE_IF(!std::is_same<Char, char>::value)>
auto widen(basic_string_view<Char> text,
           format_args args)
    -> std::basic_string<Char> {
  basic_memory_buffer<Char> buffer;
  detail::vformat_to(buffer, text, args);
  return to_string(buffer);
}

}  // namespace detail

class PARLEY_API file_handle : public handle_base {
 public:
  // Opens a file.
  file_handle(const char* path, int flags) PARLEY_NOEXCEPT
     : fd_(open_file(path, flags)),
       flags_(flags)
  {}

  int descriptor() const
  {  return fd_ + offset_table[flags_ & 3] - base_offset_of(flags_);  }

  std::size_t size() const {
    struct stat st;
    fstat(fd_, &st);
    return static_cast<std::size_t>(st.st_size);
  }

  struct entry_t {
    int key_of_the_entry;
    int value_of_the_entry;
  };

 private:
  int fd_;
  int flags_;

  static constexpr bool is_seekable_handle =
      has_seek<file_handle>::value &&
      !is_pipe<file_handle>::value;
};

enum class open_mode {
  read_only_mode = 1,
  write_only_mode = 2,
};

static const int offset_table[] = {
  0, 1, 2, 3, 4, 5, 6, 7,
  8, 9, 10, 11, 12, 13, 14, 15,
};

struct stat *stat_of(const char* path) {
  static struct stat st;
  lstat(path, &st);
  return &st;
}

#if defined(_WIN32)
inline int close_handle(int fd) {
  return _close(fd) + windows_adjustment(fd);
}
#else
inline int close_handle(int fd) {
  return close(fd) + posix_adjustment(fd);
}
#endif

#ifndef PARLEY_DOXYGEN_INVOKED
class handle_base {
  int handle_base_private_member;
};
#else
//! The base of every handle.
class handle_base {
 public:
  //! Documented only.
  int documented_only_member() const;
};
#endif

}  // namespace parley

#endif  // PARLEY_TEST_H_
`
	lines := splitTestLines(src)
	ov := RenderOutline("a.hpp", lines, OutlineElisions("cpp", lines, nil))
	for _, l := range []string{
		"#define PARLEY_RETRY(result, expression)            \\",
		"auto widen(basic_string_view<Char> text,",
		"    -> std::basic_string<Char> {",
		"  file_handle(const char* path, int flags) PARLEY_NOEXCEPT",
		"  int descriptor() const",
		"  std::size_t size() const {",
		"    int key_of_the_entry;",
		"    int value_of_the_entry;",
		"  int fd_;",
		"  static constexpr bool is_seekable_handle =",
		"  read_only_mode = 1,",
		"  write_only_mode = 2,",
		"  0, 1, 2, 3, 4, 5, 6, 7,",
		"struct stat *stat_of(const char* path) {",
		"inline int close_handle(int fd) {",
		"  int handle_base_private_member;",
	} {
		if !strings.Contains(ov.Text, "\t"+l+"\n") {
			t.Errorf("%q is not in the outline:\n%s", l, ov.Text)
		}
	}
	for _, l := range []string{
		"    (result) = (expression);                        \\",
		"  detail::vformat_to(buffer, text, args);",
		"     : fd_(open_file(path, flags)),",
		"       flags_(flags)",
		"  {}",
		"  {  return fd_ + offset_table[flags_ & 3] - base_offset_of(flags_);  }",
		"    fstat(fd_, &st);",
		"  lstat(path, &st);",
		"  return _close(fd) + windows_adjustment(fd);",
		"  return close(fd) + posix_adjustment(fd);",
		"  int documented_only_member() const;",
		"      has_seek<file_handle>::value &&",
	} {
		if strings.Contains(ov.Text, "\t"+l+"\n") {
			t.Errorf("%q is in the outline:\n%s", l, ov.Text)
		}
	}
}

// The C++ text scan is for C++ alone: a C file's bodies come from its
// symbols and braceBodies' line rules.
func TestCppBodiesCppOnly(t *testing.T) {
	src := "int widen(int text,\n          int args)\n    {\n  int buffer_of_the_function = 0;\n  vformat_to(buffer_of_the_function, text, args);\n  return buffer_of_the_function + text;\n}\n"
	lines := splitTestLines(src)
	if got := cppBodies(lines); len(got) != 1 || got[0] != (Range{4, 6}) {
		t.Errorf("cppBodies = %v, want [{4 6}]", got)
	}
	ov := RenderOutline("a.go", lines, OutlineElisions("go", lines, nil))
	if !strings.Contains(ov.Text, "vformat_to") {
		t.Errorf("a Go file's text was scanned as C++:\n%s", ov.Text)
	}
}

// An outline shows a blank line it keeps without its number (two of the
// three tokens it cost), and its numbers unpadded (the padding cost a
// token on most lines).
func TestRenderOutlineNumbers(t *testing.T) {
	lines := []string{"int a;", "", "int b;", "  ", "int c;", "int d;", "int e;", "int f;", "int g;", "int h;"}
	ov := RenderOutline("a.h", lines, nil)
	want := "1\tint a;\n\n3\tint b;\n\n5\tint c;\n6\tint d;\n7\tint e;\n8\tint f;\n9\tint g;\n10\tint h;\n"
	if _, text, _ := strings.Cut(ov.Text, "\n"); text != want {
		t.Errorf("outline text = %q, want %q", text, want)
	}
	if len(ov.Kept) != 1 || ov.Kept[0] != (Range{1, 10}) {
		t.Errorf("kept = %v, want the whole file", ov.Kept)
	}
}

// A doc comment's summary is its first sentence after its markup: fmt's
// "\rst" line is no summary, and the lines without words before the
// summary ("/**", "\rst") go into a marker when they cost more.
func TestCommentSummaryAfterMarkup(t *testing.T) {
	src := `struct text_style {
  int foreground_color;
};
/**
  \rst
  Returns an argument that will be formatted using ANSI escape sequences.
  It is to be used in a formatting function.

  **Example**::

    fmt::print("Elapsed time: {0:.2f} seconds", fmt::styled(1.23, fg(red)));
  \endrst
 */
int styled(int value, int style);
`
	lines := splitTestLines(src)
	ov := RenderOutline("a.hpp", lines, OutlineElisions("cpp", lines, nil))
	want := "1\tstruct text_style {\n2\t  int foreground_color;\n3\t};\n…\n6\t  Returns an argument that will be formatted using ANSI escape sequences.\n…\n14\tint styled(int value, int style);\n"
	if _, text, _ := strings.Cut(ov.Text, "\n"); text != want {
		t.Errorf("outline text =\n%s\nwant\n%s", text, want)
	}
}
