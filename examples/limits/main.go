// Command limits measures a GraphQL document against the query limits of
// gqlkit's [limits] package, without any schema.
//
// Usage:
//
//	limits [flags] [file]
//
// It reads the document from file, or from standard input when file is
// absent or "-", and prints its length, tokens, nesting, depth and nodes
// next to the maxima in force, then either "within limits" or one line per
// limit crossed, with the place where the query first crosses it:
//
//	$ echo '{ posts { author { posts { title } } } }' | limits -max-depth 3
//	length         41  max 20000
//	tokens         12  max 20000
//	nesting         4  max 64
//	depth           4  max 3  exceeded
//	nodes           4  max 500
//	query depth 4 exceeds the maximum of 3 (first at line 1, column 28)
//
// Unlike a server, which stops at the first limit crossed, the command
// measures the whole document, so the numbers are not cut short at a
// maximum. Depth is that of the deepest operation (or unused fragment);
// nodes are the whole document's, every operation's added up with the
// fragments it spreads, as the validator walks them. When the document does
// not parse, they are what the scan of the raw text counts (the depth
// written in each operation or fragment and the fields written in all of
// them, spreads not expanded: lower bounds, for a document that parses),
// printed as ">=N", and the syntax error goes to standard error. A server rejects
// such a document for depth or nodes, before parsing it, when a count
// crosses the maximum.
//
// The flags -max-length, -max-tokens, -max-nesting, -max-depth and
// -max-nodes override the maxima; 0 means the default and a negative
// value turns the limit off.
//
// The exit status is 0 when the document is within every limit, 1 when it
// crosses at least one, and 2 on a usage or read error, or when the
// document does not parse and crosses no limit.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/gqlkit/gqlkit/limits"
	"github.com/vektah/gqlparser/v2/ast"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK      = 0
	exitCrossed = 1
	exitUsage   = 2
)

// measureAll returns a Config that measures without stopping at any limit.
func measureAll() limits.Config {
	return limits.Config{
		MaxLength:  limits.NoLimit,
		MaxTokens:  limits.NoLimit,
		MaxNesting: limits.NoLimit,
		MaxDepth:   limits.NoLimit,
		MaxNodes:   limits.NoLimit,
	}
}

// run is the command: args without the program name.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var config limits.Config
	flags := flag.NewFlagSet("limits", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.IntVar(&config.MaxLength, "max-length", limits.DefaultMaxLength, "maximum query length in bytes")
	flags.IntVar(&config.MaxTokens, "max-tokens", limits.DefaultMaxTokens, "maximum number of tokens")
	flags.IntVar(&config.MaxNesting, "max-nesting", limits.DefaultMaxNesting, "maximum nesting of { [ (")
	flags.IntVar(&config.MaxDepth, "max-depth", limits.DefaultMaxDepth, "maximum depth of field selections")
	flags.IntVar(&config.MaxNodes, "max-nodes", limits.DefaultMaxNodes, "maximum field nodes after fragment expansion")
	flags.Usage = func() {
		fmt.Fprint(flags.Output(), "usage: limits [flags] [file]\n\n"+
			"Measures a GraphQL document (from file, or standard input) against the query limits.\n"+
			"A maximum of 0 means the default; a negative one turns the limit off.\n\n")
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if flags.NArg() > 1 {
		fmt.Fprintf(stderr, "limits: want at most one file, got %d\n", flags.NArg())
		flags.Usage()
		return exitUsage
	}

	query, err := read(flags.Arg(0), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "limits: %v\n", err)
		return exitUsage
	}

	m := measure(query)
	maxima := config.Effective()
	depth, nodes := m.docStats.Depth, m.docStats.Nodes
	if m.parseErr != nil {
		depth, nodes = m.scan.Depth, m.scan.Fields
	}
	rows := []struct {
		name       limits.Name
		value      int
		lowerBound bool
		max        int
	}{
		{name: limits.Length, value: m.scan.Length, max: maxima.MaxLength},
		{name: limits.Tokens, value: m.scan.Tokens, max: maxima.MaxTokens},
		{name: limits.Nesting, value: m.scan.Nesting, max: maxima.MaxNesting},
		{name: limits.Depth, value: depth, lowerBound: m.parseErr != nil, max: maxima.MaxDepth},
		{name: limits.Nodes, value: nodes, lowerBound: m.parseErr != nil, max: maxima.MaxNodes},
	}
	var crossed []*limits.Error
	for _, r := range rows {
		value, maxText, mark := fmt.Sprint(r.value), "none", ""
		if r.lowerBound {
			value = ">=" + value
		}
		if r.max != limits.NoLimit {
			maxText = fmt.Sprint(r.max)
			if r.value > r.max {
				mark = "  exceeded"
				crossed = append(crossed, &limits.Error{Limit: r.name, Max: r.max, Found: r.value})
			}
		}
		fmt.Fprintf(stdout, "%-7s %9s  max %s%s\n", r.name, value, maxText, mark)
	}

	for _, e := range crossed {
		e.Line, e.Column = m.firstCrossing(e.Limit, e.Max)
		if e.Line > 0 {
			fmt.Fprintf(stdout, "%v (first at line %d, column %d)\n", e, e.Line, e.Column)
		} else {
			fmt.Fprintln(stdout, e)
		}
	}
	if m.parseErr != nil {
		fmt.Fprintf(stderr, "limits: depth and nodes are lower bounds, the document does not parse: %v\n", m.parseErr)
	}
	switch {
	case len(crossed) > 0:
		return exitCrossed
	case m.parseErr != nil:
		return exitUsage
	}
	fmt.Fprintln(stdout, "within limits")
	return exitOK
}

// read returns the document in the named file, or in stdin when name is
// empty or "-".
func read(name string, stdin io.Reader) (string, error) {
	if name == "" || name == "-" {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return "", fmt.Errorf("read standard input: %w", err)
		}
		return string(b), nil
	}
	b, err := os.ReadFile(name)
	return string(b), err
}

// measurement is a document measured without limits.
type measurement struct {
	query    string
	scan     limits.Stats
	doc      *ast.QueryDocument // nil when the document does not parse
	parseErr error
	docStats limits.DocStats
}

func measure(query string) measurement {
	m := measurement{query: query}
	m.scan, _ = measureAll().Scan(query) // never fails without limits
	// Without limits, Check fails only on a syntax error; it reads the
	// document as the engine does.
	doc, err := measureAll().Check(query)
	if err != nil {
		m.parseErr = err
		return m
	}
	m.doc = doc
	m.docStats, _ = measureAll().CheckDocument(doc)
	return m
}

// firstCrossing returns where the query first crosses the named limit set
// to maxValue, checking that limit alone, or 0, 0 when it has no place.
// Depth and nodes are checked on the parsed document, or on the text when
// it does not parse.
func (m measurement) firstCrossing(limit limits.Name, maxValue int) (line, column int) {
	only := measureAll()
	switch limit {
	case limits.Tokens:
		only.MaxTokens = maxValue
	case limits.Nesting:
		only.MaxNesting = maxValue
	case limits.Depth:
		only.MaxDepth = maxValue
	case limits.Nodes:
		only.MaxNodes = maxValue
	}
	var err error
	if m.doc != nil && (limit == limits.Depth || limit == limits.Nodes) {
		_, err = only.CheckDocument(m.doc)
	} else {
		_, err = only.Scan(m.query)
	}
	var lerr *limits.Error
	if errors.As(err, &lerr) {
		return lerr.Line, lerr.Column
	}
	return 0, 0
}
