package main

import (
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
)

// Command lines are parsed completely before anything is opened: a
// mistyped command creates no database and no secret file.
func TestParseCommand(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		want    string // command name; "" when the line is refused
		wantErr error
	}{
		{args: nil, want: "serve"},
		{args: []string{"serve"}, want: "serve"},
		{args: []string{"serve", "--port", "9"}, wantErr: errUsage},
		{args: []string{"migrate"}, want: "migrate"},
		{args: []string{"migrate", "extra", "junk"}, wantErr: errUsage},
		{args: []string{"users"}, wantErr: errUsage},
		{args: []string{"users", "add", "--name", "Ann", "--email", "A@B.C", "--password", "p"}, want: "users add"},
		{args: []string{"users", "add", "--name", "Ann"}, wantErr: errUsage},
		// bcrypt reads 72 bytes: a longer password is refused, not cut.
		{args: []string{"users", "add", "--name", "Ann", "--email", "A@B.C", "--password", strings.Repeat("p", 72)}, want: "users add"},
		{args: []string{"users", "add", "--name", "Ann", "--email", "A@B.C", "--password", strings.Repeat("p", 73)}, wantErr: errUsage},
		{args: []string{"users", "delete", "--id", "3"}, want: "users delete"},
		{args: []string{"users", "delete", "--id", "0"}, wantErr: errUsage},
		{args: []string{"users", "logout", "--id", "3"}, want: "users logout"},
		{args: []string{"users", "logout"}, wantErr: errUsage},
		{args: []string{"users", "logout", "--id", "-1"}, wantErr: errUsage},
		{args: []string{"users", "logout", "--id", "x"}, wantErr: errUsage},
		{args: []string{"users", "logout", "--id", "3", "now"}, wantErr: errUsage},
		{args: []string{"users", "logout", "--user", "3"}, wantErr: errUsage},
		{args: []string{"users", "frobnicate"}, wantErr: errUsage},
		{args: []string{"token", "--user", "1", "--ttl", "5m"}, want: "token"},
		{args: []string{"token", "--user", "1", "extra"}, wantErr: errUsage},
		{args: []string{"token", "--user", "1", "--ttl", "10ms"}, wantErr: errUsage},
		{args: []string{"schema"}, want: "schema"},
		{args: []string{"schema", "--json"}, wantErr: errUsage},
		{args: []string{"help"}, wantErr: flag.ErrHelp},
		{args: []string{"frobnicate"}, wantErr: errUsage},
	} {
		cmd, err := parseCommand(tc.args, io.Discard)
		if tc.wantErr != nil {
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("parseCommand(%q) error = %v, want %v", tc.args, err, tc.wantErr)
			}
			continue
		}
		if err != nil || cmd.name != tc.want {
			t.Errorf("parseCommand(%q) = %q, %v; want %q", tc.args, cmd.name, err, tc.want)
		}
	}
}

func TestNormalEmail(t *testing.T) {
	if got := normalEmail("  Ada@Example.COM "); got != "ada@example.com" {
		t.Errorf("normalEmail = %q, want ada@example.com", got)
	}
}
