package fim

// Exported for tests.
var (
	CleanChat   = cleanChat
	WithContext = withContext
)

// Endpoint is endpoint without the error.
func Endpoint(provider, raw string) string {
	u, err := endpoint(provider, raw)
	if err != nil {
		return err.Error()
	}
	return u
}
