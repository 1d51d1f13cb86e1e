package auth_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gqlkit/gqlkit/auth"
)

// TestJWKSRedirects checks which redirects a fetch follows, with the
// client of an https provider on loopback (which trusts its certificate)
// as JWKSConfig.Client: at most three, and none to plain http once the
// chain was https, not even to a loopback address.
func TestJWKSRedirects(t *testing.T) {
	k := keysForTest(t)
	set := jwkSet(t, jwkOf(t, "ed-1", k.ed.Public()))
	var plainHits atomic.Int64
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		plainHits.Add(1)
		w.Write(set)
	}))
	t.Cleanup(plain.Close)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, _ *http.Request) { w.Write(set) })
	mux.HandleFunc("GET /to-plain", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+"/jwks", http.StatusFound)
	})
	mux.HandleFunc("GET /via-https-to-plain", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/to-plain", http.StatusFound)
	})
	// /hops/N redirects N times before the set.
	mux.HandleFunc("GET /hops/{n}", func(w http.ResponseWriter, r *http.Request) {
		n := r.PathValue("n")
		if n == "0" {
			w.Write(set)
			return
		}
		http.Redirect(w, r, "/hops/"+string(n[0]-1), http.StatusFound)
	})
	tlsProvider := httptest.NewTLSServer(mux)
	t.Cleanup(tlsProvider.Close)

	for _, tt := range []struct {
		name    string
		path    string
		wantErr string // "" for a fetch that succeeds
	}{
		{name: "no redirect", path: "/jwks"},
		{name: "https to https", path: "/hops/1"},
		{name: "three redirects", path: "/hops/3"},
		{name: "four redirects", path: "/hops/4", wantErr: "more than 3 redirects"},
		{name: "https to http on loopback", path: "/to-plain", wantErr: "a redirect from https to plain http"},
		{name: "https to https to http", path: "/via-https-to-plain", wantErr: "a redirect from https to plain http"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			plainHits.Store(0)
			client := tlsProvider.Client()
			jwks, err := auth.NewJWKS(tlsProvider.URL+tt.path, auth.JWKSConfig{Client: client})
			if err != nil {
				t.Fatal(err)
			}
			err = jwks.Refresh(context.Background())
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("Refresh = %v; want the set", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("Refresh = %v; want an error containing %q", err, tt.wantErr)
			}
			if n := plainHits.Load(); n != 0 {
				t.Errorf("the plain http server was asked %d times; want never", n)
			}
			if client.CheckRedirect != nil {
				t.Error("NewJWKS set the CheckRedirect of the caller's client; want it left as it was")
			}
		})
	}
}

// TestJWKSClientRedirectPolicy checks that the CheckRedirect of a
// caller's client is still asked, after the JWKS's own policy.
func TestJWKSClientRedirectPolicy(t *testing.T) {
	k := keysForTest(t)
	set := jwkSet(t, jwkOf(t, "ed-1", k.ed.Public()))
	provider := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/jwks", http.StatusMovedPermanently)
			return
		}
		w.Write(set)
	}))
	t.Cleanup(provider.Close)
	var asked atomic.Int64
	client := *provider.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error {
		asked.Add(1)
		return http.ErrUseLastResponse
	}
	jwks, err := auth.NewJWKS(provider.URL+"/old", auth.JWKSConfig{Client: &client})
	if err != nil {
		t.Fatal(err)
	}
	// The caller's policy stops at the 301, which is not a key set.
	if err := jwks.Refresh(context.Background()); err == nil || !strings.Contains(err.Error(), "status 301") {
		t.Errorf("Refresh = %v; want the 301 that the client's own policy stopped at", err)
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("the client's CheckRedirect was asked %d times; want once", n)
	}
}

// TestJWKSPlainRedirect checks that the JWKS's own client follows a
// redirect between plain http addresses on loopback, which the URL may be.
func TestJWKSPlainRedirect(t *testing.T) {
	k := keysForTest(t)
	set := jwkSet(t, jwkOf(t, "ed-1", k.ed.Public()))
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/jwks", http.StatusFound)
			return
		}
		w.Write(set)
	}))
	t.Cleanup(provider.Close)
	jwks, err := auth.NewJWKS(provider.URL+"/old", auth.JWKSConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if err := jwks.Refresh(context.Background()); err != nil {
		t.Errorf("Refresh = %v; want the set", err)
	}
}
