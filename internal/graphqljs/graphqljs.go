// Package graphqljs runs graphql-js, the reference implementation of
// GraphQL, under node for tests that compare gqlkit with it: the
// conformance suite (graphql/conformance) and the example server's schema
// check. The scripts and the pinned package.json and package-lock.json
// live in graphql/conformance/node; the package is installed with npm ci,
// once, into the user's cache directory, never into the source tree.
//
// Without node or npm, or when the install fails (no registry), a test is
// skipped saying why; with the environment variable CI set, it fails.
package graphqljs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Version is the graphql-js release the scripts are pinned to; it must
// match node/package.json and node/package-lock.json.
const Version = "16.15.0"

// envPrefix names, for node/graphql.mjs, the npm prefix directory whose
// node_modules holds the pinned graphql-js.
const envPrefix = "GQLKIT_GRAPHQL_JS_PREFIX"

// installTimeout bounds npm ci, so that an unreachable registry ends in a
// skip (or, under CI, a failure) rather than a hung test.
const installTimeout = 3 * time.Minute

// JS is graphql-js ready to run: the folder of the scripts and the npm
// prefix where the pinned graphql-js is installed.
type JS struct{ dir, prefix string }

// Ready makes sure node and the pinned graphql-js are there, for the
// scripts in dir (graphql/conformance/node, relative to the test's
// package folder). The package is installed with npm ci from the committed
// lock file, once, into <user cache dir>/gqlkit/conformance-<hash of
// package.json and package-lock.json>, so that a change of either gets a
// fresh install. Without node or npm, or when the install fails, the test
// is skipped, saying why; with CI set, each of these fails it instead.
func Ready(t testing.TB, dir string) JS {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			notReady(t, "%s is not installed (%v); the graphql-js checks need node >= 20 and npm", tool, err)
		}
	}
	// Read the node side's sources so that go test's cache notices when they change.
	for _, f := range []string{"run.mjs", "schema.mjs", "abstract-schema.mjs", "graphql.mjs", "package.json"} {
		if _, err := os.ReadFile(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	prefix, err := installDir(dir)
	if err != nil {
		notReady(t, "no directory to install graphql-js into: %v", err)
	}
	if _, err := os.Stat(filepath.Join(prefix, "node_modules", "graphql", "package.json")); errors.Is(err, os.ErrNotExist) {
		if err := install(t, dir, prefix); err != nil {
			notReady(t, "the pinned graphql-js %s could not be installed into %s: %v", Version, prefix, err)
		}
	}
	checkVersion(t, prefix)
	return JS{dir: dir, prefix: prefix}
}

// notReady skips the test, or fails it under CI.
func notReady(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format+" (skipped: set CI to make this a failure)", args...)
}

// installDir is where the pinned graphql-js lives:
// <user cache dir>/gqlkit/conformance-<hash>, the hash that of
// package.json and package-lock.json in dir, so that a change of either
// gets a fresh install and old ones are never reused.
func installDir(dir string) (string, error) {
	h := sha256.New()
	for _, f := range []string{"package.json", "package-lock.json"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, "gqlkit", "conformance-"+hex.EncodeToString(h.Sum(nil))[:16]), nil
}

// install runs npm ci for the package.json and lock file of dir in a new
// directory beside prefix, then renames it to prefix, so that prefix is
// either absent or complete (a concurrent install that finished first
// wins).
func install(t testing.TB, dir, prefix string) error {
	if err := os.MkdirAll(filepath.Dir(prefix), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(prefix), filepath.Base(prefix)+".installing-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // gone once renamed
	for _, f := range []string{"package.json", "package-lock.json"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err == nil {
			err = os.WriteFile(filepath.Join(tmp, f), b, 0o644)
		}
		if err != nil {
			return err
		}
	}
	t.Logf("installing graphql-js %s with npm ci into %s", Version, prefix)
	ctx, cancel := context.WithTimeout(context.Background(), installTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund", "--prefer-offline", "--fetch-retries=1")
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm ci: %w\n%s", err, out[max(len(out)-2000, 0):])
	}
	if err := os.Rename(tmp, prefix); err != nil {
		if _, statErr := os.Stat(filepath.Join(prefix, "node_modules", "graphql", "package.json")); statErr == nil {
			return nil // another run installed it meanwhile
		}
		return err
	}
	return nil
}

// checkVersion fails the test when prefix holds another graphql-js than
// the scripts are pinned to.
func checkVersion(t testing.TB, prefix string) {
	t.Helper()
	pkg := filepath.Join(prefix, "node_modules", "graphql", "package.json")
	raw, err := os.ReadFile(pkg)
	if err != nil {
		t.Fatal(err)
	}
	var meta struct{ Version string }
	if err := json.Unmarshal(raw, &meta); err != nil {
		t.Fatalf("%s: %v", pkg, err)
	}
	if meta.Version != Version {
		t.Fatalf("%s holds graphql-js %s, the scripts are pinned to %s: remove the directory to install it again",
			prefix, meta.Version, Version)
	}
}

// Run runs run.mjs with args and stdin, and returns what it printed.
func (js JS) Run(ctx context.Context, t testing.TB, stdin []byte, args ...string) []byte {
	t.Helper()
	cmd := exec.CommandContext(ctx, "node", append([]string{filepath.Join(js.dir, "run.mjs")}, args...)...)
	cmd.Env = append(os.Environ(), envPrefix+"="+js.prefix)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node run.mjs %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}

// ClientSDL returns printSchema(buildClientSchema(result)), for an
// introspection result ({"data": {...}} or the data object); it fails t
// when graphql-js refuses the result.
func (js JS) ClientSDL(ctx context.Context, t testing.TB, result []byte) string {
	t.Helper()
	var client struct {
		SDL   string `json:"sdl"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(js.Run(ctx, t, result, "client-sdl"), &client); err != nil {
		t.Fatalf("decoding node's answer: %v", err)
	}
	if client.Error != "" {
		t.Fatalf("graphql-js buildClientSchema refused the introspection result: %s", client.Error)
	}
	return client.SDL
}

// SchemaErrors returns, for each SDL text, the messages of graphql-js's
// validateSchema on the schema buildSchema makes of it (run.mjs
// validate-schemas); it fails t when buildSchema refuses one.
func (js JS) SchemaErrors(ctx context.Context, t testing.TB, sdls []string) [][]string {
	t.Helper()
	type schema struct {
		Name string `json:"name"`
		SDL  string `json:"sdl"`
	}
	in := make([]schema, len(sdls))
	for i, sdl := range sdls {
		in[i] = schema{Name: fmt.Sprint(i), SDL: sdl}
	}
	body, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var answers []struct {
		Name   string   `json:"name"`
		Errors []string `json:"errors"`
	}
	if err := json.Unmarshal(js.Run(ctx, t, body, "validate-schemas"), &answers); err != nil {
		t.Fatalf("decoding node's answer: %v", err)
	}
	if len(answers) != len(sdls) {
		t.Fatalf("node answered for %d schemas, not %d", len(answers), len(sdls))
	}
	out := make([][]string, len(answers))
	for i, a := range answers {
		if a.Name != fmt.Sprint(i) {
			t.Fatalf("node's answer %d is for schema %q", i, a.Name)
		}
		if len(a.Errors) == 1 && strings.HasPrefix(a.Errors[0], "buildSchema: ") {
			t.Fatalf("graphql-js refused schema %d: %s\n%s", i, a.Errors[0], sdls[i])
		}
		out[i] = a.Errors
	}
	return out
}

// IntrospectionQuery returns graphql-js's getIntrospectionQuery with every
// option on (descriptions, specifiedByURL, repeatable directives, the
// schema's description, deprecated input values, oneOf).
func (js JS) IntrospectionQuery(ctx context.Context, t testing.TB) string {
	t.Helper()
	return string(js.Run(ctx, t, nil, "introspection-query"))
}
