package errors_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"testing"
)

// TestImportAlias enforces the one local name of this package: every Go
// file of the module imports it as apierror.
func TestImportAlias(t *testing.T) {
	const path = "github.com/gqlkit/gqlkit/errors"
	root := ".."
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if base := d.Name(); name != root && (base == "testdata" || base[0] == '.' || base[0] == '_') {
				return filepath.SkipDir
			}
			return nil
		}
		if filepath.Ext(name) != ".go" {
			return nil
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			return nil // a file someone is editing; the compiler will say more
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p != path {
				continue
			}
			if imp.Name == nil || imp.Name.Name != "apierror" {
				t.Errorf("%s imports %s without the alias apierror", fset.Position(imp.Pos()), path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
