package auth_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gqlkit/gqlkit/auth"
)

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name    string
		secret  []byte
		cfg     auth.Config
		wantErr []string // substrings of the error; none means success
	}{
		{name: "32-byte secret", secret: testSecret},
		{name: "no secret", wantErr: []string{"auth: the HMAC secret is empty"}},
		{name: "31-byte secret", secret: testSecret[:31], wantErr: []string{"auth: the HMAC secret is 31 bytes; HS256 needs at least 32"}},
		{name: "negative TTL", secret: testSecret, cfg: auth.Config{TTL: -time.Minute}, wantErr: []string{"auth: Config.TTL is -1m0s; it must be at least 1s"}},
		{name: "sub-second TTL", secret: testSecret, cfg: auth.Config{TTL: 500 * time.Millisecond}, wantErr: []string{"auth: Config.TTL is 500ms"}},
		{name: "negative leeway means none", secret: testSecret, cfg: auth.Config{Leeway: -1}},
		{
			name:    "every problem at once",
			secret:  []byte("short"),
			cfg:     auth.Config{TTL: -1},
			wantErr: []string{"the HMAC secret is 5 bytes", "Config.TTL is -1ns"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, verr := auth.NewVerifier(auth.HMAC(tt.secret), tt.cfg)
			i, ierr := auth.NewIssuer(tt.secret, tt.cfg)
			for name, err := range map[string]error{"NewVerifier": verr, "NewIssuer": ierr} {
				if len(tt.wantErr) == 0 {
					if err != nil {
						t.Errorf("%s: %v; want no error", name, err)
					}
					continue
				}
				if err == nil {
					t.Errorf("%s: no error; want %q", name, tt.wantErr)
					continue
				}
				for _, want := range tt.wantErr {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("%s error = %q; want it to contain %q", name, err, want)
					}
				}
			}
			if len(tt.wantErr) > 0 && (v != nil || i != nil) {
				t.Errorf("constructors returned %v, %v with an error; want nil", v, i)
			}
		})
	}
}
