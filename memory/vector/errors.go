package vector

import (
	"errors"
	"fmt"
)

// ErrInvalid is matched by errors that are the caller's mistake: a bad
// name, a wrong dimension, a zero vector, an index that exists already.
var ErrInvalid = errors.New("invalid vector request")

// ErrNotFound is matched by errors naming an unknown index or vector.
var ErrNotFound = errors.New("not found")

type invalidError string

func (e invalidError) Error() string        { return string(e) }
func (e invalidError) Is(target error) bool { return target == ErrInvalid }

func invalidf(format string, args ...any) error {
	return invalidError(fmt.Sprintf(format, args...))
}

func notFoundf(format string, args ...any) error {
	return fmt.Errorf(format+": %w", append(args, ErrNotFound)...)
}
