package limits_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gqlkit/gqlkit/limits"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

func ExampleConfig_Scan() {
	const query = `query Posts {
  posts(first: 5) { title author { name } }  # closing: }}}
}`
	stats, err := limits.Config{}.Scan(query)
	fmt.Printf("%+v, err: %v\n", stats, err)

	_, err = limits.Config{MaxNesting: 2}.Scan(query)
	var lerr *limits.Error
	if errors.As(err, &lerr) {
		fmt.Printf("%s: max %d, found %d, at %d:%d\n", lerr.Limit, lerr.Max, lerr.Found, lerr.Line, lerr.Column)
		fmt.Println(err)
	}
	// Output:
	// {Length:75 Tokens:18 Nesting:3 Depth:3 Fields:4 UndefinedVariable:{Name: Operation: Line:0 Column:0}}, err: <nil>
	// nesting: max 2, found 3, at 2:34
	// query bracket nesting 3 exceeds the maximum of 2
}

func ExampleConfig_CheckDocument() {
	// A fragment bomb: F1 spreads F2 twice, F2 spreads F3 twice, and so on.
	var b strings.Builder
	b.WriteString("{ ...F1 }\n")
	for i := 1; i < 30; i++ {
		fmt.Fprintf(&b, "fragment F%d on Query { ...F%d ...F%d }\n", i, i+1, i+1)
	}
	b.WriteString("fragment F30 on Query { title }\n")

	doc, err := parser.ParseQuery(&ast.Source{Input: b.String()})
	if err != nil {
		fmt.Println(err)
		return
	}
	stats, err := limits.Config{}.CheckDocument(doc)
	fmt.Printf("%+v\n", stats)
	fmt.Println(err)
	// Output:
	// {Depth:1 Nodes:536870912}
	// query node count 536870912 exceeds the maximum of 500
}

func ExampleConfig_Check() {
	config := limits.Config{MaxDepth: 3}
	for _, query := range []string{
		`{ posts { author { name } } }`,
		`{ posts { author { posts { title } } } }`,
		`{ posts { `,
	} {
		doc, err := config.Check(query)
		var lerr *limits.Error
		switch {
		case errors.As(err, &lerr):
			fmt.Printf("limit %s: %v\n", lerr.Limit, err)
		case err != nil:
			fmt.Println("syntax:", err)
		default:
			fmt.Println("ok:", len(doc.Operations), "operation")
		}
	}
	// Output:
	// ok: 1 operation
	// limit depth: query depth 4 exceeds the maximum of 3
	// syntax: input:1:11: Expected Name, found <EOF>
}

func ExampleConfig_Scan_hostile() {
	// About 2000 conflicting aliases, in 20 KB: gqlparser takes milliseconds
	// to parse them, and its validator seconds to compare them.
	wide := "{ " + strings.Repeat("a:echoInt a:echoStr ", 999) + "}"
	stats, err := limits.Config{}.Scan(wide)
	fmt.Printf("%d fields seen: %v\n", stats.Fields, err)

	// Selection sets nested 64 deep, within the nesting limit.
	deep := strings.Repeat("{ a ", 64) + strings.Repeat("}", 64)
	stats, err = limits.Config{}.Scan(deep)
	fmt.Printf("depth %d seen: %v\n", stats.Depth, err)
	// Output:
	// 1998 fields seen: query node count 1998 exceeds the maximum of 500
	// depth 64 seen: query depth 64 exceeds the maximum of 10
}

func ExampleStats_undefinedVariable() {
	// A variable the operation does not declare: no limit is crossed, but
	// validation would refuse the document.
	stats, err := limits.Config{}.Scan(`query Post($id: ID!) { post(id: $id) { comments(first: $n) { text } } }`)
	ref := stats.UndefinedVariable
	fmt.Printf("$%s in %s at %d:%d, err: %v\n", ref.Name, ref.Operation, ref.Line, ref.Column, err)
	// Output:
	// $n in Post at 1:56, err: <nil>
}
