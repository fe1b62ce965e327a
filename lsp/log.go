package lsp

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"
)

// ParseLevel maps a configured log level name to a slog level.
func ParseLevel(s string) (slog.Level, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "info":
		return slog.LevelInfo, nil
	case "debug", "log", "verbose":
		return slog.LevelDebug, nil
	case "warn", "warning":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return 0, fmt.Errorf("log level %q: want debug, info, warn or error", s)
}

// logSink writes every record to the log file and those at or above the
// client level to window/logMessage. It never writes to stdout, which
// carries the protocol.
type logSink struct {
	mu     sync.Mutex
	file   io.Writer // may be nil
	client protocol.Client
	level  slog.Level
}

func (l *logSink) setClient(c protocol.Client) {
	l.mu.Lock()
	l.client = c
	l.mu.Unlock()
}

func (l *logSink) setLevel(level slog.Level) {
	l.mu.Lock()
	l.level = level
	l.mu.Unlock()
}

func (l *logSink) log(level slog.Level, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	l.mu.Lock()
	file, client, min := l.file, l.client, l.level
	if file != nil {
		fmt.Fprintf(file, "%s %s %s\n", time.Now().Format("2006-01-02T15:04:05.000"), level, msg)
	}
	l.mu.Unlock()
	if client == nil || level < min {
		return
	}
	typ := protocol.MessageTypeLog
	switch {
	case level >= slog.LevelError:
		typ = protocol.MessageTypeError
	case level >= slog.LevelWarn:
		typ = protocol.MessageTypeWarning
	case level >= slog.LevelInfo:
		typ = protocol.MessageTypeInfo
	}
	// A notification never waits for the peer, so this cannot deadlock
	// the read goroutine; a failure means the connection is going away.
	_ = client.LogMessage(context.Background(), &protocol.LogMessageParams{Type: typ, Message: msg})
}

func (l *logSink) Debugf(format string, args ...any) { l.log(slog.LevelDebug, format, args...) }
func (l *logSink) Infof(format string, args ...any)  { l.log(slog.LevelInfo, format, args...) }
func (l *logSink) Warnf(format string, args ...any)  { l.log(slog.LevelWarn, format, args...) }
func (l *logSink) Errorf(format string, args ...any) { l.log(slog.LevelError, format, args...) }
