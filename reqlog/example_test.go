package reqlog_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/rs/zerolog"

	"github.com/gqlkit/gqlkit/reqlog"
)

func ExampleHandler() {
	var logs bytes.Buffer
	logger := zerolog.New(&logs)

	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/articles/{id}", func(w http.ResponseWriter, r *http.Request) {
		// The request's logger carries request_id.
		zerolog.Ctx(r.Context()).Info().Str("article", r.PathValue("id")).Msg("showing")
		fmt.Fprintf(w, `{"data":{"id":%s}}`, r.PathValue("id"))
	})
	handler := reqlog.Handler(logger)(mux)

	req := httptest.NewRequest(http.MethodGet, "/api/articles/7?token=secret", nil)
	req.Header.Set("X-Request-Id", "req-42")
	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, req)
	fmt.Println("X-Request-Id:", rec.Header().Get("X-Request-Id"))

	dec := json.NewDecoder(&logs)
	for dec.More() {
		var line map[string]any
		if err := dec.Decode(&line); err != nil {
			panic(err)
		}
		delete(line, "duration") // varies from run to run
		out, _ := json.Marshal(line)
		fmt.Println(string(out))
	}
	// Output:
	// X-Request-Id: req-42
	// {"article":"7","level":"info","message":"showing","request_id":"req-42"}
	// {"bytes":17,"level":"info","message":"request","method":"GET","path":"/api/articles/7","request_id":"req-42","status":200}
}
