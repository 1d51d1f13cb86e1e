package gqlmirror_test

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	_ "github.com/vektah/gqlparser/v2/ast" // so that the build info lists gqlparser

	"github.com/gqlkit/gqlkit/internal/gqlmirror"
)

const gqlparserPath = "github.com/vektah/gqlparser/v2"

// TestGqlparserVersion fails when the kit builds against a version of
// gqlparser other than the one the mirrors were checked against: in go.mod
// (a require or a replace) and, where the test binary lists its
// dependencies, in the build of this very test.
func TestGqlparserVersion(t *testing.T) {
	const help = "the mirrors of gqlparser in internal/gqlmirror (and limits' scanner) were checked against " +
		gqlmirror.CheckedVersion + ": run their fuzz targets against the new version, read its changelog and diff, " +
		"fix what differs, then update gqlmirror.CheckedVersion"
	required, replaced := goModVersion(t)
	if required != gqlmirror.CheckedVersion {
		t.Errorf("go.mod requires %s %s, not %s: %s", gqlparserPath, required, gqlmirror.CheckedVersion, help)
	}
	if replaced != "" {
		t.Errorf("go.mod replaces %s (%s): %s", gqlparserPath, replaced, help)
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return // built without module information: go.mod was read above
	}
	for _, m := range info.Deps {
		if m.Path != gqlparserPath {
			continue
		}
		if m.Replace != nil {
			t.Errorf("this test was built with %s replaced by %s %s: %s", gqlparserPath, m.Replace.Path, m.Replace.Version, help)
		} else if m.Version != gqlmirror.CheckedVersion {
			t.Errorf("this test was built with %s %s, not %s: %s", gqlparserPath, m.Version, gqlmirror.CheckedVersion, help)
		}
	}
}

// goModVersion reads the kit's go.mod: the version of gqlparser it
// requires, and what a replace directive puts in its place, if any.
func goModVersion(t *testing.T) (required, replaced string) {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "//")
		fields := strings.Fields(line)
		if len(fields) > 0 && (fields[0] == "require" || fields[0] == "replace") {
			fields = fields[1:] // a one-line directive; in a block, lines start with the path
		}
		if len(fields) < 2 || fields[0] != gqlparserPath {
			continue
		}
		if strings.Contains(line, "=>") {
			replaced = strings.Join(fields, " ")
		} else {
			required = fields[1]
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if required == "" {
		t.Fatalf("go.mod requires no %s: the test reads it wrong", gqlparserPath)
	}
	return required, replaced
}
