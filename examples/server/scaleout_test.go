package main

import (
	"bytes"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestScaleOutStart starts several servers at once on an empty database
// with no JWT_SECRET: every one must come up (one migration at a time),
// and every one must accept the tokens the others issue (one shared
// secret: the file beside SQLite, a row in PostgreSQL).
func TestScaleOutStart(t *testing.T) {
	const n = 4
	for _, kind := range databaseKinds {
		t.Run(kind.name, func(t *testing.T) {
			db := kind.open(t)
			serverBinary(t)
			procs := make([]*process, n)
			for i := range procs {
				procs[i] = db.launch(t)
			}
			for _, p := range procs {
				p.waitListening(t)
			}
			db.mustRun(t, "users", "add", "--name", "Ada", "--email", "ada@example.com", "--password", "correct horse")
			for i, p := range procs {
				r := send(t, http.MethodPost, p.base+"/api/auth/login", `{"email":"ada@example.com","password":"correct horse"}`,
					"Content-Type", "application/json")
				var login struct {
					AccessToken string `json:"access_token"`
				}
				r.decode(t, &login)
				if login.AccessToken == "" {
					t.Fatalf("login on server %d: %d %s", i, r.status, r.body)
				}
				other := procs[(i+1)%n]
				r = send(t, http.MethodPost, other.base+"/api/articles", fmt.Sprintf(`{"title":"From %d","body":"Text"}`, i),
					"Content-Type", "application/json", "Authorization", "Bearer "+login.AccessToken)
				if r.status != http.StatusCreated {
					t.Errorf("a token of server %d on server %d: %d %s, want 201", i, (i+1)%n, r.status, r.body)
				}
			}
		})
	}
}

// TestSecretFileCreatedOnce has many goroutines load a secret file that
// does not exist yet: each must get the whole secret, and all the same one.
func TestSecretFileCreatedOnce(t *testing.T) {
	for round := range 20 {
		path := filepath.Join(t.TempDir(), "jwt-secret")
		const n = 16
		var (
			wg      sync.WaitGroup
			secrets [n][]byte
			errs    [n]error
		)
		for i := range n {
			wg.Go(func() { secrets[i], errs[i] = loadSecret(path) })
		}
		wg.Wait()
		for i := range n {
			if errs[i] != nil {
				t.Fatalf("round %d, loader %d: %v", round, i, errs[i])
			}
			if len(secrets[i]) != 32 || !bytes.Equal(secrets[i], secrets[0]) {
				t.Fatalf("round %d: loader %d got %x, loader 0 got %x", round, i, secrets[i], secrets[0])
			}
		}
		matches, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".jwt-secret-*"))
		if len(matches) != 0 {
			t.Fatalf("round %d: temporary files left behind: %s", round, strings.Join(matches, ", "))
		}
	}
}
