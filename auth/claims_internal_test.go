package auth

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzWalkObject checks walkObject against encoding/json's Decoder: on a
// valid JSON object it yields the same members, names unescaped and
// values as written, or fails exactly when a name comes twice; on any
// other input it fails and never panics.
func FuzzWalkObject(f *testing.F) {
	for _, seed := range []string{
		`{}`, ` { } `, `{"sub":"42","exp":9999999999}`, `{"sub":"1","sub":"2"}`, `{"sub":"1","s\u0075b":"2"}`,
		`{"a":{"b":[1,{"c":"}]\""}]},"d":[],"e":null,"f":true,"g":-1.5e3}`, `{"é":1,"\u00e9":2}`, `{"\ud800":1,"\ufffd":2}`,
		`{"a":1,"A":2}`, `[1]`, `"x"`, `{"a":1,}`, `{"a"}`, `{"a":1}x`, `{"a":"\"}`, `{`, ``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var names, values [][]byte
		err := walkObject(data, func(name, value []byte) error {
			names = append(names, bytes.Clone(name))
			values = append(values, bytes.Clone(value))
			return nil
		})
		if !json.Valid(data) || bytes.TrimSpace(data)[0] != '{' {
			return // any answer but a panic
		}
		wantNames, wantValues, duplicate := referenceMembers(t, data)
		switch {
		case duplicate && err == nil:
			t.Fatalf("walkObject(%q) took a name given twice", data)
		case !duplicate && err != nil:
			t.Fatalf("walkObject(%q) = %v; want the members %q", data, err, wantNames)
		case duplicate:
			return
		}
		if len(names) != len(wantNames) {
			t.Fatalf("walkObject(%q) gave %d members, want %d", data, len(names), len(wantNames))
		}
		for i := range names {
			if string(names[i]) != wantNames[i] || !bytes.Equal(values[i], wantValues[i]) {
				t.Fatalf("walkObject(%q) member %d = %q: %q; want %q: %q", data, i, names[i], values[i], wantNames[i], wantValues[i])
			}
		}
	})
}

// referenceMembers reads the members of a valid JSON object with a
// Decoder, and reports whether a name (unescaped) comes twice.
func referenceMembers(t *testing.T, data []byte) (names []string, values [][]byte, duplicate bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		name := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			t.Fatal(err)
		}
		if seen[name] {
			duplicate = true
		}
		seen[name] = true
		names, values = append(names, name), append(values, raw)
	}
	return names, values, duplicate
}
