package ledger

import (
	"context"
	"strings"
	"testing"

	"github.com/parleyhq/parley/index/extract"
)

func splitTestLines(src string) []string { return strings.Split(strings.TrimSuffix(src, "\n"), "\n") }

// The blank line and the "/// <summary>" line between two members go
// with the marker before them: a class of short members under doc
// comments shows each member's summary and signature, and nothing else.
func TestOutlineQuietLines(t *testing.T) {
	src := `public class Settings
{
    /// <summary>
    /// Gets or sets how null values are handled.
    /// </summary>
    public NullValueHandling NullValueHandling
    {
        get => _nullValueHandling ?? DefaultNullValueHandling;
        set => _nullValueHandling = value;
    }

    /// <summary>
    /// Gets or sets how default values are handled.
    /// </summary>
    public DefaultValueHandling DefaultValueHandling
    {
        get => _defaultValueHandling ?? DefaultDefaultValueHandling;
        set => _defaultValueHandling = value;
    }
}
`
	res, err := extract.For("csharp").Extract(context.Background(), "A.cs", []byte(src), extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lines := splitTestLines(src)
	ov := RenderOutline("A.cs", lines, OutlineElisions("csharp", lines, res.Symbols))
	want := `1	public class Settings
2	{
…
4	    /// Gets or sets how null values are handled.
…
6	    public NullValueHandling NullValueHandling
…
13	    /// Gets or sets how default values are handled.
…
15	    public DefaultValueHandling DefaultValueHandling
…
20	}
`
	if _, got, _ := strings.Cut(ov.Text, "]\n"); got != want {
		t.Errorf("outline:\n%s\nwant:\n%s", got, want)
	}
}

// A block comment's inner lines are comment lines though they do not
// start with "*" (Boost.Beast's doc comments): the rest of a long one
// after its first sentence is elided.
func TestOutlineBlockComment(t *testing.T) {
	src := `class flat_buffer
{
public:
    /** Constructor

        After construction, @ref capacity will return zero, and
        @ref max_size will return the largest value which may
        be passed to the allocator's allocate function.
    */
    flat_buffer();

    /** Returns the size of the readable bytes; a "/*" in a string
        does not open a comment.
    */
    std::size_t size() const noexcept;
};
`
	lines := splitTestLines(src)
	res, err := extract.For("cpp").Extract(context.Background(), "a.hpp", []byte(src), extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ov := RenderOutline("a.hpp", lines, OutlineElisions("cpp", lines, res.Symbols))
	for _, l := range []string{"    /** Constructor", "    flat_buffer();", "    std::size_t size() const noexcept;"} {
		if !strings.Contains(ov.Text, "\t"+l+"\n") {
			t.Errorf("%q is not in the outline:\n%s", l, ov.Text)
		}
	}
	for _, l := range []string{"        @ref max_size will return the largest value which may"} {
		if strings.Contains(ov.Text, "\t"+l+"\n") {
			t.Errorf("%q is in the outline:\n%s", l, ov.Text)
		}
	}
}

// In C and C++ a body whose "{" is on a line of its own is found by its
// text when the extractor did not report its function (a grammar error
// earlier in the class): after a header that ends in ")" and qualifiers,
// with a constructor's initializer list or a template prefix, but not
// after a control statement or a type's head.
func TestOutlineAllmanBodies(t *testing.T) {
	src := `class header : public Fields
{
public:
    template<class Arg1, class... ArgN>
    explicit header(Arg1&& arg1, ArgN&&... argn)
        : Fields(arg1)
    {
        init(arg1);
        apply(argn...);
    }

    unsigned version() const BOOST_NOEXCEPT
    {
        check(version_);
        return version_;
    }

    header& operator=(BOOST_RV_REF(header) other) // never throws
    {
        this_type(other).swap(*this);
        return *this;
    }

    pointer &get() BOOST_NOEXCEPT
    {  return m_ptr_holder.get_and_check_pointer();  }

    struct node_t : public base_t
    {
        int key;
        int value;
    };
};

BOOST_DETAIL_NAMESPACE(detail)
{
    class node_base;
    int node_count;
}
`
	lines := splitTestLines(src)
	ov := RenderOutline("a.hpp", lines, OutlineElisions("cpp", lines, nil))
	for _, l := range []string{"    explicit header(Arg1&& arg1, ArgN&&... argn)", "    unsigned version() const BOOST_NOEXCEPT", "    pointer &get() BOOST_NOEXCEPT", "        int key;", "        int value;", "    class node_base;", "    int node_count;"} {
		if !strings.Contains(ov.Text, "\t"+l+"\n") {
			t.Errorf("%q is not in the outline:\n%s", l, ov.Text)
		}
	}
	for _, l := range []string{"        init(arg1);", "        check(version_);", "        this_type(other).swap(*this);", "    {  return m_ptr_holder.get_and_check_pointer();  }"} {
		if strings.Contains(ov.Text, "\t"+l+"\n") {
			t.Errorf("%q is in the outline:\n%s", l, ov.Text)
		}
	}
}

// The rest of a comment is never elided over a symbol's name line, even
// when a symbol is reported on a line the outline takes for a comment.
func TestOutlineCommentTailsSpareNames(t *testing.T) {
	lines := splitTestLines("/* Totals\n   the first line of the totals table\n   the second line of the totals table\n   the third line of the totals table\n*/\nint total;\n")
	syms := []extract.Symbol{{Name: "odd", Kind: extract.KindVariable, Parent: -1, Selection: extract.Range{Start: extract.Pos{Line: 2}}}}
	ov := RenderOutline("a.c", lines, OutlineElisions("c", lines, syms))
	if !strings.Contains(ov.Text, "\t"+lines[2]+"\n") {
		t.Errorf("line 3 (a symbol's name line) is not in the outline:\n%s", ov.Text)
	}
}

// A body worth its marker only with the blank line after it (a Python
// property whose body is a docstring, its closing quotes alone on a line)
// is elided with that line.
func TestOutlineDocstringBody(t *testing.T) {
	src := `class Response(metaclass=abc.ABCMeta):
    @property
    @abc.abstractmethod
    def serial_number(self) -> int:
        """
        The serial number of the certificate.
        """

    @property
    @abc.abstractmethod
    def issuer_key_hash(self) -> bytes:
        """
        The hash of the issuer's public key.
        """
`
	res, err := extract.For("python").Extract(context.Background(), "a.py", []byte(src), extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lines := splitTestLines(src)
	ov := RenderOutline("a.py", lines, OutlineElisions("python", lines, res.Symbols))
	want := `1	class Response(metaclass=abc.ABCMeta):
2	    @property
3	    @abc.abstractmethod
4	    def serial_number(self) -> int:
5	        """
6	        The serial number of the certificate.
…
9	    @property
`
	if _, got, _ := strings.Cut(ov.Text, "]\n"); !strings.HasPrefix(got, want) {
		t.Errorf("outline:\n%s\nwant it to start:\n%s", got, want)
	}
}
