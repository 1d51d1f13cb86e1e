package reqlog_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/gqlkit/gqlkit/reqlog"
)

func ExampleHandler() {
	// The service's logger: an IDHandler around its handler adds the
	// request id to the lines logged with a request's context.
	logger := slog.New(reqlog.NewIDHandler(slog.NewJSONHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey || a.Key == "duration" { // they vary from run to run
				return slog.Attr{}
			}
			return a
		},
	})))

	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/articles/{id}", func(w http.ResponseWriter, r *http.Request) {
		logger.InfoContext(r.Context(), "showing", "article", r.PathValue("id"))
		fmt.Fprintf(w, `{"data":{"id":%s}}`, r.PathValue("id"))
	})
	handler := reqlog.Handler(logger)(mux)

	req := httptest.NewRequest(http.MethodGet, "/api/articles/7?token=secret", nil)
	req.Header.Set("X-Request-Id", "req-42")
	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, req)
	fmt.Println("X-Request-Id:", rec.Header().Get("X-Request-Id"))
	// Output:
	// {"level":"INFO","msg":"showing","article":"7","request_id":"req-42"}
	// {"level":"INFO","msg":"request","request_id":"req-42","method":"GET","path":"/api/articles/7","status":200,"bytes":17}
	// X-Request-Id: req-42
}
