package gomod_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// kitPackages are the packages a service imports; examples and tests are
// not among them.
var kitPackages = []string{"./articles/...", "./auth/...", "./errors/...", "./graphiql/...", "./graphql/...", "./graphqlhttp/...", "./idempotency/...",
	"./limits/...", "./otelgraphql/...", "./reqlog/...", "./validate/...", "./internal/..."}

func TestGoModRequiresOnlyWhatTheKitImports(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	direct := directRequires(t, filepath.Join(root, "go.mod"))
	// -test: a kit package's tests need their modules in go.mod too (the
	// OpenTelemetry SDK for otelgraphql's); the examples' live in
	// examples/go.mod.
	cmd := exec.Command("go", append([]string{"list", "-deps", "-test", "-f", "{{with .Module}}{{.Path}}{{end}}"}, kitPackages...)...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	used := map[string]bool{}
	for _, line := range strings.Fields(string(out)) {
		used[line] = true
	}
	for _, m := range direct {
		if !used[m] {
			t.Errorf("go.mod requires %s, which no kit package or kit test imports (does only an example need it?)", m)
		}
	}
}

// directRequires lists the modules of go.mod's require lines that are not
// marked indirect.
func directRequires(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var mods []string
	inBlock := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "require (":
			inBlock = true
			continue
		case inBlock && line == ")":
			inBlock = false
			continue
		case strings.HasPrefix(line, "require "):
			line = strings.TrimPrefix(line, "require ")
		case !inBlock:
			continue
		}
		if fields := strings.Fields(line); len(fields) >= 2 && !strings.Contains(line, "// indirect") {
			mods = append(mods, fields[0])
		}
	}
	if len(mods) == 0 {
		t.Fatal("go.mod has no direct requirements: the test reads it wrong")
	}
	return mods
}
