// Package logbuf is a log sink for tests: a buffer that the goroutines of a
// server under test write while the test reads it.
package logbuf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// Buffer is a bytes.Buffer safe for concurrent writers and readers. Its
// zero value is empty and ready to use.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Reset empties the buffer.
func (b *Buffer) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Reset()
}

// Lines returns the lines written so far that contain substr, each decoded
// as a JSON object; a matching line that is not one is an error.
func (b *Buffer) Lines(substr string) ([]map[string]any, error) {
	var out []map[string]any
	for _, line := range strings.Split(b.String(), "\n") {
		if line == "" || !strings.Contains(line, substr) {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			return nil, fmt.Errorf("log line %q is not a JSON object: %w", line, err)
		}
		out = append(out, m)
	}
	return out, nil
}
