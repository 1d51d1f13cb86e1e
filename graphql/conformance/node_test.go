package conformance_test

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

// envPrefix names, for node/graphql.mjs, the npm prefix directory whose
// node_modules holds the pinned graphql-js.
const envPrefix = "GQLKIT_GRAPHQL_JS_PREFIX"

// installTimeout bounds npm ci, so that an unreachable registry ends in a
// skip (or, under CI, a failure) rather than a hung test.
const installTimeout = 3 * time.Minute

// graphqlJS is the graphql-js side of the suite: node, and the npm prefix
// where the pinned graphql-js is installed.
type graphqlJS struct{ prefix string }

// nodeReady makes sure node and the pinned graphql-js are there. The
// package is installed with npm ci from the committed lock file, once, into
// the user's cache directory (see installDir), never into the source
// tree. Without node or npm, or when the install fails (no registry), the
// test is skipped, saying why; with the environment variable CI set, each
// of these fails it instead.
func nodeReady(t *testing.T) graphqlJS {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			notReady(t, "%s is not installed (%v); the graphql-js conformance suite needs node >= 20 and npm", tool, err)
		}
	}
	// Read the node side's sources so that go test's cache notices when they change.
	for _, f := range []string{"run.mjs", "schema.mjs", "graphql.mjs", "package.json"} {
		if _, err := os.ReadFile(filepath.Join("node", f)); err != nil {
			t.Fatal(err)
		}
	}
	dir, err := installDir()
	if err != nil {
		notReady(t, "no directory to install graphql-js into: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "graphql", "package.json")); errors.Is(err, os.ErrNotExist) {
		if err := install(t, dir); err != nil {
			notReady(t, "the pinned graphql-js %s could not be installed into %s: %v", graphqlJSVersion, dir, err)
		}
	}
	checkVersion(t, dir)
	return graphqlJS{prefix: dir}
}

// notReady skips the test, or fails it under CI.
func notReady(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format+" (skipped: set CI to make this a failure)", args...)
}

// installDir is where the pinned graphql-js lives:
// <user cache dir>/gqlkit/conformance-<hash>, the hash that of
// node/package.json and node/package-lock.json, so that a change of
// either gets a fresh install and old ones are never reused.
func installDir() (string, error) {
	h := sha256.New()
	for _, f := range []string{"package.json", "package-lock.json"} {
		b, err := os.ReadFile(filepath.Join("node", f))
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

// install runs npm ci for the committed package.json and lock file in a
// new directory beside dir, then renames it to dir, so that dir is either
// absent or complete (a concurrent install that finished first wins).
func install(t *testing.T, dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".installing-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // gone once renamed
	for _, f := range []string{"package.json", "package-lock.json"} {
		b, err := os.ReadFile(filepath.Join("node", f))
		if err == nil {
			err = os.WriteFile(filepath.Join(tmp, f), b, 0o644)
		}
		if err != nil {
			return err
		}
	}
	t.Logf("installing graphql-js %s with npm ci into %s", graphqlJSVersion, dir)
	ctx, cancel := context.WithTimeout(context.Background(), installTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund", "--prefer-offline", "--fetch-retries=1")
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm ci: %w\n%s", err, out[max(len(out)-2000, 0):])
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(filepath.Join(dir, "node_modules", "graphql", "package.json")); statErr == nil {
			return nil // another run installed it meanwhile
		}
		return err
	}
	return nil
}

// checkVersion fails the test when dir holds another graphql-js than the
// corpus is pinned to.
func checkVersion(t *testing.T, dir string) {
	t.Helper()
	pkg := filepath.Join(dir, "node_modules", "graphql", "package.json")
	raw, err := os.ReadFile(pkg)
	if err != nil {
		t.Fatal(err)
	}
	var meta struct{ Version string }
	if err := json.Unmarshal(raw, &meta); err != nil {
		t.Fatalf("%s: %v", pkg, err)
	}
	if meta.Version != graphqlJSVersion {
		t.Fatalf("%s holds graphql-js %s, the corpus is pinned to %s: remove the directory to install it again",
			dir, meta.Version, graphqlJSVersion)
	}
}

// run runs node/run.mjs with args and stdin, and returns what it printed.
func (js graphqlJS) run(ctx context.Context, t *testing.T, stdin []byte, args ...string) []byte {
	t.Helper()
	cmd := exec.CommandContext(ctx, "node", append([]string{filepath.Join("node", "run.mjs")}, args...)...)
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
