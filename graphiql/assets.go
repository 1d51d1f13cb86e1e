package graphiql

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// files holds the vendored GraphiQL files (dist/, gzip-compressed, with
// their manifest) and the page's own (static/).
//
//go:embed dist static
var files embed.FS

// manifestEntry is one vendored file as dist/manifest.json records it.
type manifestEntry struct {
	Name      string `json:"name"`      // its name in dist/ (without .gz) and under the assets path
	Package   string `json:"package"`   // the npm package it comes from
	Version   string `json:"version"`   // the package's version
	Path      string `json:"path"`      // the file's path in the package
	SHA256    string `json:"sha256"`    // of the file as the package ships it (uncompressed)
	Integrity string `json:"integrity"` // the package's registry integrity
}

// readManifest reads dist/manifest.json.
func readManifest(fsys fs.FS) ([]manifestEntry, error) {
	b, err := fs.ReadFile(fsys, "dist/manifest.json")
	if err != nil {
		return nil, fmt.Errorf("graphiql: reading the manifest: %w", err)
	}
	var m struct {
		Files []manifestEntry `json:"files"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("graphiql: reading the manifest: %w", err)
	}
	return m.Files, nil
}

// asset is one file served under the assets path.
type asset struct {
	contentType string
	body        []byte // as stored: gzip-compressed when gzipped
	gzipped     bool
	version     string // a prefix of the sha256 of the content: the ?v= of its URL
}

// versionLen is how many hex digits of a file's sha256 its URLs carry.
const versionLen = 16

// loadAssets reads the vendored files of the manifest and the page's own
// files, by their names under the assets path.
func loadAssets(fsys fs.FS) (map[string]*asset, error) {
	entries, err := readManifest(fsys)
	if err != nil {
		return nil, err
	}
	assets := make(map[string]*asset, len(entries)+2)
	for _, e := range entries {
		body, err := fs.ReadFile(fsys, "dist/"+e.Name+".gz")
		if err != nil {
			return nil, fmt.Errorf("graphiql: %w", err)
		}
		if len(e.SHA256) < versionLen {
			return nil, fmt.Errorf("graphiql: the manifest has no sha256 for %s", e.Name)
		}
		assets[e.Name] = &asset{contentType: contentType(e.Name), body: body, gzipped: true, version: e.SHA256[:versionLen]}
	}
	own, err := fs.ReadDir(fsys, "static")
	if err != nil {
		return nil, fmt.Errorf("graphiql: %w", err)
	}
	for _, d := range own {
		body, err := fs.ReadFile(fsys, "static/"+d.Name())
		if err != nil {
			return nil, fmt.Errorf("graphiql: %w", err)
		}
		sum := sha256.Sum256(body)
		assets[d.Name()] = &asset{contentType: contentType(d.Name()), body: body, version: hex.EncodeToString(sum[:])[:versionLen]}
	}
	return assets, nil
}

// contentType is the Content-Type of a file by its name.
func contentType(name string) string {
	switch path.Ext(name) {
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	}
	if strings.HasPrefix(name, "LICENSE") {
		return "text/plain; charset=utf-8"
	}
	return "application/octet-stream"
}
