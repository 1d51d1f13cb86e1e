package graphiql

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"strings"
	"testing"
)

// TestManifest checks every embedded vendored file against
// dist/manifest.json: the sha256 of its content, once decompressed, is the
// one recorded; every file in dist/ is listed and every listed file is
// there; each entry names its package, version, path and integrity; and
// Version is the GraphiQL version of the manifest.
func TestManifest(t *testing.T) {
	entries, err := readManifest(files)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) == 0 {
		t.Fatal("the manifest lists no file")
	}
	listed := make(map[string]bool)
	for _, e := range entries {
		if e.Name == "" || e.Package == "" || e.Version == "" || e.Path == "" || !strings.HasPrefix(e.Integrity, "sha512-") {
			t.Errorf("incomplete manifest entry %+v", e)
		}
		if listed[e.Name+".gz"] {
			t.Errorf("%s is listed twice", e.Name)
		}
		listed[e.Name+".gz"] = true
		if e.Package == "graphiql" && e.Version != Version {
			t.Errorf("%s is from graphiql %s, but Version is %s", e.Name, e.Version, Version)
		}
		stored, err := fs.ReadFile(files, "dist/"+e.Name+".gz")
		if err != nil {
			t.Errorf("%s: %v", e.Name, err)
			continue
		}
		zr, err := gzip.NewReader(bytes.NewReader(stored))
		if err != nil {
			t.Errorf("%s.gz: %v", e.Name, err)
			continue
		}
		h := sha256.New()
		if _, err := io.Copy(h, zr); err != nil {
			t.Errorf("%s.gz: %v", e.Name, err)
			continue
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != e.SHA256 {
			t.Errorf("%s: sha256 %s, the manifest says %s (%s@%s %s): run vendor.sh", e.Name, got, e.SHA256, e.Package, e.Version, e.Path)
		}
	}
	dist, err := fs.ReadDir(files, "dist")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dist {
		if d.Name() != "manifest.json" && !listed[d.Name()] {
			t.Errorf("dist/%s is embedded but not in the manifest", d.Name())
		}
	}
	for _, want := range []string{"graphiql.js", "graphiql.css", "react.js", "react-dom.js"} {
		if !listed[want+".gz"] {
			t.Errorf("the manifest lists no %s", want)
		}
	}
}
