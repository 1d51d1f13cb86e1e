package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	var bomb strings.Builder
	bomb.WriteString("{ ...F1 }\n")
	for i := 1; i < 40; i++ {
		fmt.Fprintf(&bomb, "fragment F%d on Query { ...F%d ...F%d }\n", i, i+1, i+1)
	}
	bomb.WriteString("fragment F40 on Query { title }\n")
	hostile := "{ " + strings.Repeat("a:echoInt a:echoStr ", 1000) + "}"

	tests := []struct {
		name       string
		args       []string
		stdin      string
		wantStdout string
		wantStderr string
		wantCode   int
	}{
		{
			name:  "within limits from standard input",
			stdin: "query Feed {\n  posts(first: 5) { title author { name } } # {{\n}\n",
			wantStdout: "" +
				"length         64  max 20000\n" +
				"tokens         18  max 20000\n" +
				"nesting         3  max 64\n" +
				"depth           3  max 10\n" +
				"nodes           4  max 500\n" +
				"within limits\n",
			wantCode: 0,
		},
		{
			name:  "dash is standard input",
			args:  []string{"-"},
			stdin: "{ a }",
			wantStdout: "" +
				"length          5  max 20000\n" +
				"tokens          3  max 20000\n" +
				"nesting         1  max 64\n" +
				"depth           1  max 10\n" +
				"nodes           1  max 500\n" +
				"within limits\n",
		},
		{
			name: "depth crossed, from a file, with flags",
			args: []string{"-max-depth", "2", "-max-nodes=-1", file("deep.graphql", "{\n  posts {\n    author { name }\n  }\n}\n")},
			wantStdout: "" +
				"length         38  max 20000\n" +
				"tokens          9  max 20000\n" +
				"nesting         3  max 64\n" +
				"depth           3  max 2  exceeded\n" +
				"nodes           3  max none\n" +
				"query depth 3 exceeds the maximum of 2 (first at line 3, column 14)\n",
			wantCode: 1,
		},
		{
			name:  "hostile overlapping fields cross length and nodes",
			stdin: hostile,
			wantStdout: "" +
				"length      20003  max 20000  exceeded\n" +
				"tokens       6002  max 20000\n" +
				"nesting         1  max 64\n" +
				"depth           1  max 10\n" +
				"nodes        2000  max 500  exceeded\n" +
				"query length 20003 bytes exceeds the maximum of 20000 bytes\n" +
				"query node count 2000 exceeds the maximum of 500 (first at line 1, column 5003)\n",
			wantCode: 1,
		},
		{
			name:  "fragment bomb",
			stdin: bomb.String(),
			wantStdout: "" +
				"length       1577  max 20000\n" +
				"tokens        401  max 20000\n" +
				"nesting         1  max 64\n" +
				"depth           1  max 10\n" +
				"nodes   549755813888  max 500  exceeded\n" +
				"query node count 549755813888 exceeds the maximum of 500 (first at line 1, column 6)\n",
			wantCode: 1,
		},
		{
			name:  "tokens and nesting",
			args:  []string{"-max-tokens", "5", "-max-nesting", "2"},
			stdin: "{ a { b { c } } }",
			wantStdout: "" +
				"length         17  max 20000\n" +
				"tokens          9  max 5  exceeded\n" +
				"nesting         3  max 2  exceeded\n" +
				"depth           3  max 10\n" +
				"nodes           3  max 500\n" +
				"query token count 9 exceeds the maximum of 5 (first at line 1, column 11)\n" +
				"query bracket nesting 3 exceeds the maximum of 2 (first at line 1, column 9)\n",
			wantCode: 1,
		},
		{
			name:  "syntax error",
			stdin: "{ a(",
			wantStdout: "" +
				"length          4  max 20000\n" +
				"tokens          3  max 20000\n" +
				"nesting         2  max 64\n" +
				"depth         >=1  max 10\n" +
				"nodes         >=1  max 500\n",
			wantStderr: "limits: depth and nodes are lower bounds, the document does not parse: input:1:5: Expected Name, found <EOF>\n",
			wantCode:   2,
		},
		{
			name:  "syntax error and a limit crossed",
			args:  []string{"-max-length", "3"},
			stdin: "{ a(",
			wantStdout: "" +
				"length          4  max 3  exceeded\n" +
				"tokens          3  max 20000\n" +
				"nesting         2  max 64\n" +
				"depth         >=1  max 10\n" +
				"nodes         >=1  max 500\n" +
				"query length 4 bytes exceeds the maximum of 3 bytes\n",
			wantStderr: "limits: depth and nodes are lower bounds, the document does not parse: input:1:5: Expected Name, found <EOF>\n",
			wantCode:   1,
		},
		{
			name:  "syntax error, too deep in the text",
			args:  []string{"-max-depth", "2"},
			stdin: "{ a { b { c } } ...F }\nfragment F on T { d e f",
			wantStdout: "" +
				"length         46  max 20000\n" +
				"tokens         19  max 20000\n" +
				"nesting         3  max 64\n" +
				"depth         >=3  max 2  exceeded\n" +
				"nodes         >=6  max 500\n" +
				"query depth 3 exceeds the maximum of 2 (first at line 1, column 11)\n",
			wantStderr: "limits: depth and nodes are lower bounds, the document does not parse: input:2:24: Expected Name, found <EOF>\n",
			wantCode:   1,
		},
		{
			name:  "zero flag is the default",
			args:  []string{"-max-depth", "0"},
			stdin: "{ a }",
			wantStdout: "" +
				"length          5  max 20000\n" +
				"tokens          3  max 20000\n" +
				"nesting         1  max 64\n" +
				"depth           1  max 10\n" +
				"nodes           1  max 500\n" +
				"within limits\n",
		},
		{
			name:       "missing file",
			args:       []string{filepath.Join(dir, "missing.graphql")},
			wantStderr: "limits: open " + filepath.Join(dir, "missing.graphql") + ": no such file or directory\n",
			wantCode:   2,
		},
		{
			name:       "two files",
			args:       []string{"a.graphql", "b.graphql"},
			wantStderr: "limits: want at most one file, got 2\n" + usage,
			wantCode:   2,
		},
		{
			name:       "unknown flag",
			args:       []string{"-max-cost", "3"},
			wantStderr: "flag provided but not defined: -max-cost\n" + usage,
			wantCode:   2,
		},
		{
			name:       "bad flag value",
			args:       []string{"-max-depth", "ten"},
			wantStderr: "invalid value \"ten\" for flag -max-depth: parse error\n" + usage,
			wantCode:   2,
		},
		{
			name:       "help",
			args:       []string{"-h"},
			wantStderr: usage,
			wantCode:   0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			code := run(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
			if code != tt.wantCode {
				t.Errorf("exit status = %d, want %d", code, tt.wantCode)
			}
			if got := stdout.String(); got != tt.wantStdout {
				t.Errorf("stdout:\n%s\nwant:\n%s", got, tt.wantStdout)
			}
			if got := stderr.String(); got != tt.wantStderr {
				t.Errorf("stderr:\n%s\nwant:\n%s", got, tt.wantStderr)
			}
		})
	}
}

const usage = `usage: limits [flags] [file]

Measures a GraphQL document (from file, or standard input) against the query limits.
A maximum of 0 means the default; a negative one turns the limit off.

  -max-depth int
    	maximum depth of field selections (default 10)
  -max-length int
    	maximum query length in bytes (default 20000)
  -max-nesting int
    	maximum nesting of { [ ( (default 64)
  -max-nodes int
    	maximum field nodes after fragment expansion (default 500)
  -max-tokens int
    	maximum number of tokens (default 20000)
`
