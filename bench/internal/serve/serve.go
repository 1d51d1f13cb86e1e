// Package serve runs the benchmark servers: one HTTP server on loopback
// until its context ends, then a bounded shutdown.
package serve

import (
	"context"
	"log"
	"net"
	"net/http"
	"strconv"
	"time"
)

// Loopback serves h on 127.0.0.1:port until ctx ends or the server fails,
// logging what (the text after "serving http://ADDR") it serves, and then
// shuts the server down within 5 s.
func Loopback(ctx context.Context, port int, h http.Handler, label, what string) error {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	log.Printf("%sserving http://%s%s", label, ln.Addr(), what)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shutdown)
}
