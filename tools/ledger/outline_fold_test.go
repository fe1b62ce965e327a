package ledger

import (
	"context"
	"strings"
	"testing"

	"github.com/parleyhq/parley/index/extract"
)

// The outline on code written in the styles of issue 27: every signature
// stays, and what is not one (short bodies, the rest of a doc comment
// after its first sentence, the rows of a data table, a type alias's
// union, accessor bodies, the body of a method the grammar could not
// read, the middle of a long enum) goes.
func TestOutlineStyles(t *testing.T) {
	tests := []struct {
		name, lang, file, src string
		kept, elided          []string
	}{{
		name: "C++ one-line bodies under long doc comments", lang: "cpp", file: "a.cc",
		src: `class Buffer {
 public:
  // Returns the number of bytes held by the buffer. The count never
  // exceeds capacity(), and is zero for a buffer that was moved from;
  // see also empty() and the notes on thread safety at the top of the
  // file, which apply to every accessor.
  size_t size() const {
    return storage_.size_in_bytes_including_header() - header_bytes_;
  }
 private:
  Storage storage_;
};
`,
		kept:   []string{"  // Returns the number of bytes held by the buffer. The count never", "  size_t size() const {", "  Storage storage_;"},
		elided: []string{"  // file, which apply to every accessor.", "    return storage_.size_in_bytes_including_header() - header_bytes_;"},
	}, {
		name: "Java doc comment: the first sentence over two lines", lang: "java", file: "A.java",
		src: `public class A {
    /**
     * Replaces the element at the specified position in this array with
     * the specified element, growing the array when needed.
     *
     * @param index the index of the element to replace
     * @param element the element to be stored at the specified position
     * @return the element previously at the specified position
     */
    public int set(int index, int element) {
        return elements.set(index, element);
    }
}
`,
		kept:   []string{"     * Replaces the element at the specified position in this array with", "     * the specified element, growing the array when needed.", "    public int set(int index, int element) {"},
		elided: []string{"     * @param index the index of the element to replace", "        return elements.set(index, element);"},
	}, {
		name: "C# property accessors under an XML doc summary", lang: "csharp", file: "A.cs",
		src: `public class Settings
{
    /// <summary>
    /// Gets or sets how reference loops are handled.
    /// </summary>
    /// <value>Default value is <see cref="ReferenceLoopHandling.Error" />.</value>
    public ReferenceLoopHandling ReferenceLoopHandling
    {
        get => _referenceLoopHandling ?? DefaultReferenceLoopHandling;
        set => _referenceLoopHandling = value;
    }
}
`,
		kept:   []string{"    /// Gets or sets how reference loops are handled.", "    public ReferenceLoopHandling ReferenceLoopHandling"},
		elided: []string{"    /// <value>Default value is <see cref=\"ReferenceLoopHandling.Error\" />.</value>", "        get => _referenceLoopHandling ?? DefaultReferenceLoopHandling;"},
	}, {
		name: "Java data table", lang: "java", file: "E.java",
		src: `public class E {
    private static final String[][] ESCAPE = {
        {"\u00A0", "&nbsp;"}, // non-breaking space
        {"\u00A1", "&iexcl;"}, // inverted exclamation mark
        {"\u00A2", "&cent;"}, // cent sign
        {"\u00A3", "&pound;"}, // pound sign
    };
    private static final String[][] UNESCAPE = invert(ESCAPE);
}
`,
		kept:   []string{"    private static final String[][] ESCAPE = {", "    private static final String[][] UNESCAPE = invert(ESCAPE);"},
		elided: []string{`        {"\u00A1", "&iexcl;"}, // inverted exclamation mark`},
	}, {
		name: "Go data table", lang: "go", file: "t.go",
		src: `package token

var tokens = [...]string{
	ILLEGAL: "ILLEGAL",
	EOF:     "EOF",
	COMMENT: "COMMENT",
	IDENT:   "IDENT",
}

const LowestPrec = 0
`,
		kept:   []string{"var tokens = [...]string{", "const LowestPrec = 0"},
		elided: []string{`	COMMENT: "COMMENT",`},
	}, {
		name: "TypeScript union type alias", lang: "typescript", file: "e.ts",
		src: `export type Expected =
  | "string"
  | "number"
  | "boolean"
  | "bigint";

export interface Issue {
  readonly code: string;
}
`,
		kept:   []string{"export type Expected =", "export interface Issue {", "  readonly code: string;"},
		elided: []string{`  | "boolean"`},
	}, {
		name: "C++ method whose signature ends in a macro", lang: "cpp", file: "f.h",
		src: `class FixedArray {
 public:
  reference at(size_type i) ABSL_ATTRIBUTE_LIFETIME_BOUND {
    if (ABSL_PREDICT_FALSE(i >= size())) {
      ThrowStdOutOfRange("FixedArray::at failed bounds check");
    }
    return data()[i];
  }
  size_type size() const { return size_; }
};
`,
		kept:   []string{"  reference at(size_type i) ABSL_ATTRIBUTE_LIFETIME_BOUND {", "  size_type size() const { return size_; }"},
		elided: []string{`      ThrowStdOutOfRange("FixedArray::at failed bounds check");`},
	}, {
		name: "JavaScript test suite: a call's callback is not a body", lang: "javascript", file: "a.test.js",
		src: `describe("parser", () => {
  it("parses an empty file", () => {
    expect(parse("")).toEqual([]);
  });
});
`,
		kept: []string{`  it("parses an empty file", () => {`},
	}, {
		name: "Rust enum of many documented variants", lang: "rust", file: "e.rs",
		src: `pub enum ErrorCode {
    /// Catchall for syntax error messages
    Message(Box<str>),
    /// EOF while parsing a list.
    EofWhileParsingList,
    /// EOF while parsing an object.
    EofWhileParsingObject,
    /// EOF while parsing a string.
    EofWhileParsingString,
    /// EOF while parsing a JSON value.
    EofWhileParsingValue,
    /// Expected this character to be a ':'.
    ExpectedColon,
    /// Expected this character to be either a ',' or a ']'.
    ExpectedListCommaOrEnd,
    /// Expected this character to be either a ',' or a '}'.
    ExpectedObjectCommaOrEnd,
    /// Expected to parse either a true, false, or a null.
    ExpectedSomeIdent,
    /// Encountered nesting of JSON maps and arrays more than 128 layers deep.
    RecursionLimitExceeded,
}
`,
		kept:   []string{"pub enum ErrorCode {", "    EofWhileParsingObject,", "    RecursionLimitExceeded,"},
		elided: []string{"    ExpectedColon,", "    /// Expected this character to be a ':'."},
	}, {
		name: "Kotlin one-line block bodies", lang: "kotlin", file: "B.kt",
		src: `class Buffer {
  /** Read and exhaust bytes from ` + "`input`" + ` into this. */
  fun readFrom(input: InputStream): Buffer {
    readFrom(input, Long.MAX_VALUE, true)
  }

  actual override fun exhausted() = size == 0L
}
`,
		kept:   []string{"  fun readFrom(input: InputStream): Buffer {", "  actual override fun exhausted() = size == 0L"},
		elided: []string{"    readFrom(input, Long.MAX_VALUE, true)"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := extract.For(tt.lang).Extract(context.Background(), tt.file, []byte(tt.src), extract.Options{})
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(tt.src, "\n"), "\n")
			ov := RenderOutline(tt.file, lines, OutlineElisions(tt.lang, lines, res.Symbols))
			for _, l := range tt.kept {
				if !strings.Contains(ov.Text, "\t"+l+"\n") {
					t.Errorf("%q is not in the outline:\n%s", l, ov.Text)
				}
			}
			for _, l := range tt.elided {
				if strings.Contains(ov.Text, "\t"+l+"\n") {
					t.Errorf("%q is in the outline:\n%s", l, ov.Text)
				}
			}
			folded := FoldedEnumMembers(res.Symbols)
			for i, s := range res.Symbols {
				if n := int(s.Selection.Start.Line) + 1; !inBody(res.Symbols, i) && !folded[i] && !strings.Contains(ov.Text, "\t"+lines[n-1]+"\n") {
					t.Errorf("%s %s (line %d) elided:\n%s", s.Kind, s.Name, n, ov.Text)
				}
			}
		})
	}
}

// A marker is a bare "…": the numbers of the lines around it say which
// lines it stands for, and it costs 2 tokens where "⋯ a–b" cost 8.
func TestOutlineMarkerIsBare(t *testing.T) {
	lines := strings.Split("a\nb\nc\nd\ne", "\n")
	ov := RenderOutline("f", lines, []Range{{2, 4}})
	want := "1\ta\n…\n5\te\n"
	if !strings.HasSuffix(ov.Text, want) {
		t.Errorf("got %q, want it to end %q", ov.Text, want)
	}
}
