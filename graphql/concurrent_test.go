package graphql_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/gqlkit/gqlkit/graphql"
)

func TestConcurrentExecutions(t *testing.T) {
	// One prepared operation with variable-dependent selections, executed
	// from many goroutines (run with -race).
	s := heroSchema(t)
	op, errs := s.Prepare(parseValidated(t, s,
		`query($a: Boolean!, $b: Boolean!) { hero { id ... @include(if: $a) { name friends { name } } friends @include(if: $b) { age } } }`), "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := map[[2]bool]string{
		{false, false}: `{"hero":{"id":"1"}}`,
		{true, false}:  `{"hero":{"id":"1","name":"Luke","friends":[{"name":"Han"},{"name":"Leia"}]}}`,
		{false, true}:  `{"hero":{"id":"1","friends":[{"age":32},{"age":19}]}}`,
		{true, true}:   `{"hero":{"id":"1","name":"Luke","friends":[{"name":"Han","age":32},{"name":"Leia","age":19}]}}`,
	}
	const workers = 8
	failures := make(chan string, workers)
	for w := range workers {
		go func() {
			var msg string
			for i := range 50 {
				key := [2]bool{(i+w)%2 == 0, (i/2+w)%2 == 0}
				res := execute(op, context.Background(), graphql.ExecParams{Dst: make([]byte, 0, 64), Variables: map[string]any{"a": key[0], "b": key[1]}})
				if string(res.Data) != want[key] && msg == "" {
					msg = fmt.Sprintf("a=%v b=%v: got %s, want %s", key[0], key[1], res.Data, want[key])
				}
			}
			failures <- msg
		}()
	}
	for range workers {
		if msg := <-failures; msg != "" {
			t.Error(msg)
		}
	}
}

// TestConcurrentLatePlans: the sub-selection of a field that two
// conditional occurrences merge is planned during executions, one plan
// per set of conditions, and holds conditional fields of its own; many
// goroutines executing one prepared operation plan it at once (run with
// -race: they shared a write to the operation's planner).
func TestConcurrentLatePlans(t *testing.T) {
	s := heroSchema(t)
	op, errs := s.Prepare(parseValidated(t, s, `query($a: Boolean!, $b: Boolean!) { hero {
		friends @include(if: $b) { name @include(if: $a) }
		... @include(if: $a) { friends { age @skip(if: $b) } } } }`), "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := map[[2]bool]string{
		{false, false}: `{"hero":{}}`,
		{true, false}:  `{"hero":{"friends":[{"age":32},{"age":19}]}}`,
		{false, true}:  `{"hero":{"friends":[{},{}]}}`,
		{true, true}:   `{"hero":{"friends":[{"name":"Han"},{"name":"Leia"}]}}`,
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	for w := range 8 {
		wg.Go(func() {
			for i := range 20 {
				key := [2]bool{(i+w)%2 == 0, (i/2+w)%2 == 0}
				res := execute(op, context.Background(), graphql.ExecParams{Variables: map[string]any{"a": key[0], "b": key[1]}})
				if string(res.Data) != want[key] || len(res.Errors) > 0 {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("a=%v b=%v: got %s %v, want %s", key[0], key[1], res.Data, res.Errors, want[key]))
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if len(failures) > 0 {
		t.Errorf("%d executions differ, the first: %s", len(failures), failures[0])
	}
}
