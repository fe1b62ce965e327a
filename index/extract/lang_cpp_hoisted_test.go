package extract

import (
	"context"
	"testing"
)

// When the grammar loses a function (here a constructor whose template
// parameter's default is `>::type* = 0`), it reads the locals of the
// next function's body as variables of the file; cppDropHoisted removes
// the symbols that stand inside a body found by the file's text.
func TestCppDropHoisted(t *testing.T) {
	src := `namespace demo {

template <typename Executor>
class random_access_handle : public overlapped_handle<Executor> {
 public:
  template <typename ExecutionContext>
  explicit random_access_handle(ExecutionContext& context,
      typename enable_if<
        is_convertible<ExecutionContext&, execution_context&>::value,
        random_access_handle
      >::type* = 0)
    : overlapped_handle<Executor>(context)
  {
  }

  std::size_t write_some_at(uint64_t offset, const char* data) {
    boost::system::error_code ec;
    std::size_t written = this->impl_.write_some_at(offset, data, ec);
    return written;
  }
};

}  // namespace demo
`
	res, err := For("cpp").Extract(context.Background(), "handle.hpp", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for i, s := range res.Symbols {
		names[s.Name] = true
		if s.Parent >= int32(i) {
			t.Errorf("%s: parent %d after it", s.Name, s.Parent)
		}
	}
	for _, local := range []string{"ec", "written"} {
		if names[local] {
			t.Errorf("the local %s is a symbol of the file: %+v", local, res.Symbols)
		}
	}
	if !names["random_access_handle"] {
		t.Errorf("random_access_handle is not a symbol: %+v", res.Symbols)
	}
}
