// Package limit is the floor of every handler benchmark: a net/http handler
// that decodes the JSON request as any server must and then writes the
// reference response, without parsing, validating or executing anything.
// It knows only the two benchmark requests.
package limit

import (
	"encoding/json"
	"net/http"

	"github.com/gqlkit/gqlkit/bench/sample"
)

// NewHandler returns the floor handler for the benchmark requests.
func NewHandler() (http.Handler, error) {
	reqs, err := sample.Requests()
	if err != nil {
		return nil, err
	}
	answers := make(map[string][]byte, len(reqs))
	for _, r := range reqs {
		answers[r.Query] = r.Expected
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Query         string         `json:"query"`
			OperationName string         `json:"operationName"`
			Variables     map[string]any `json:"variables"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "the body is not a JSON request", http.StatusBadRequest)
			return
		}
		body, ok := answers[req.Query]
		if !ok {
			http.Error(w, "only the benchmark requests are answered", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}), nil
}
