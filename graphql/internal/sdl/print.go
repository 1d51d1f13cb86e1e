// Package sdl prints a schema in the Schema Definition Language, as
// graphql-js's printSchema does.
package sdl

import (
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlkit/gqlkit/internal/gqlmirror/syntax"
)

// Print returns sch in the Schema Definition Language, formatted as
// graphql-js's printSchema formats it: the types named in order, in that
// order, but for built-in ones (the built-in scalars and the introspection
// types); directive definitions are left out. A deprecation whose reason is
// defaultReason prints as a bare @deprecated.
func Print(sch *ast.Schema, order []string, defaultReason string) string {
	var parts []string
	if sch.Description != "" || sch.Query.Name != "Query" || sch.Mutation != nil && sch.Mutation.Name != "Mutation" {
		var b strings.Builder
		b.WriteString(printDescription(sch.Description, "", true))
		b.WriteString("schema {\n  query: " + sch.Query.Name + "\n")
		if sch.Mutation != nil {
			b.WriteString("  mutation: " + sch.Mutation.Name + "\n")
		}
		b.WriteString("}")
		parts = append(parts, b.String())
	}
	p := printer{defaultReason: defaultReason}
	for _, name := range order {
		d := sch.Types[name]
		if d == nil || d.BuiltIn {
			continue
		}
		var b strings.Builder
		b.WriteString(printDescription(d.Description, "", true))
		switch d.Kind {
		case ast.Scalar:
			b.WriteString("scalar " + d.Name)
			if url := d.Directives.ForName("specifiedBy"); url != nil {
				b.WriteString(" @specifiedBy(url: " + syntax.PrintString(url.Arguments.ForName("url").Value.Raw) + ")")
			}
		case ast.Enum:
			b.WriteString("enum " + d.Name + " {\n")
			for i, v := range d.EnumValues {
				b.WriteString(printDescription(v.Description, "  ", i == 0))
				b.WriteString("  " + v.Name + p.deprecated(v.Directives) + "\n")
			}
			b.WriteString("}")
		case ast.InputObject:
			b.WriteString("input " + d.Name + " {\n")
			for i, f := range d.Fields {
				b.WriteString(printDescription(f.Description, "  ", i == 0))
				b.WriteString("  " + p.inputValue(f.Name, f.Type, f.DefaultValue, f.Directives) + "\n")
			}
			b.WriteString("}")
		case ast.Union:
			b.WriteString("union " + d.Name)
			if len(d.Types) > 0 {
				b.WriteString(" = " + strings.Join(d.Types, " | "))
			}
		case ast.Object, ast.Interface:
			keyword := "type "
			if d.Kind == ast.Interface {
				keyword = "interface "
			}
			b.WriteString(keyword + d.Name)
			if len(d.Interfaces) > 0 {
				b.WriteString(" implements " + strings.Join(d.Interfaces, " & "))
			}
			b.WriteString(" {\n")
			for i, f := range d.Fields {
				if strings.HasPrefix(f.Name, "__") {
					continue // gqlparser's __schema and __type on the query type
				}
				b.WriteString(printDescription(f.Description, "  ", i == 0))
				b.WriteString("  " + f.Name + p.args(f.Arguments, "  ") + ": " + f.Type.String() + p.deprecated(f.Directives) + "\n")
			}
			b.WriteString("}")
		default:
			continue
		}
		parts = append(parts, b.String())
	}
	return strings.Join(parts, "\n\n")
}

// printer holds what Print's helpers need to know.
type printer struct{ defaultReason string }

func (p printer) args(args ast.ArgumentDefinitionList, indent string) string {
	if len(args) == 0 {
		return ""
	}
	described := false
	for _, a := range args {
		if a.Description != "" {
			described = true
		}
	}
	if !described {
		parts := make([]string, len(args))
		for i, a := range args {
			parts[i] = p.inputValue(a.Name, a.Type, a.DefaultValue, a.Directives)
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	var b strings.Builder
	b.WriteString("(\n")
	for i, a := range args {
		b.WriteString(printDescription(a.Description, "  "+indent, i == 0))
		b.WriteString("  " + indent + p.inputValue(a.Name, a.Type, a.DefaultValue, a.Directives) + "\n")
	}
	b.WriteString(indent + ")")
	return b.String()
}

func (p printer) inputValue(name string, typ *ast.Type, def *ast.Value, dirs ast.DirectiveList) string {
	out := name + ": " + typ.String()
	if def != nil {
		out += " = " + syntax.PrintValue(def)
	}
	return out + p.deprecated(dirs)
}

// deprecated prints the @deprecated directive of dirs, if any.
func (p printer) deprecated(dirs ast.DirectiveList) string {
	d := dirs.ForName("deprecated")
	if d == nil {
		return ""
	}
	reason := p.defaultReason
	if a := d.Arguments.ForName("reason"); a != nil && a.Value != nil {
		reason = a.Value.Raw
	}
	if reason == p.defaultReason {
		return " @deprecated"
	}
	return " @deprecated(reason: " + syntax.PrintString(reason) + ")"
}

func printDescription(desc, indent string, first bool) string {
	if desc == "" {
		return ""
	}
	var str string
	if printableAsBlock(desc) {
		str = printBlockString(desc)
	} else {
		str = syntax.PrintString(desc)
	}
	prefix := indent
	if indent != "" && !first {
		prefix = "\n" + indent
	}
	return prefix + strings.ReplaceAll(str, "\n", "\n"+indent) + "\n"
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// printableAsBlock follows graphql-js's isPrintableAsBlockString.
func printableAsBlock(v string) bool {
	emptyLine, hasIndent, commonIndent, seenNonEmpty := true, false, true, false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c < 0x20 && c != '\n' && c != '\t':
			return false
		case c == '\n':
			if emptyLine && !seenNonEmpty {
				return false
			}
			seenNonEmpty, emptyLine, hasIndent = true, true, false
		case isBlank(c):
			if !hasIndent {
				hasIndent = emptyLine
			}
		default:
			if commonIndent {
				commonIndent = hasIndent
			}
			emptyLine = false
		}
	}
	if emptyLine {
		return false
	}
	return !(commonIndent && seenNonEmpty)
}

// printBlockString follows graphql-js's printBlockString.
func printBlockString(v string) string {
	escaped := strings.ReplaceAll(v, `"""`, `\"""`)
	lines := strings.Split(escaped, "\n")
	single := len(lines) == 1
	forceLeading := len(lines) > 1
	if forceLeading {
		for _, l := range lines[1:] {
			if l != "" && !isBlank(l[0]) {
				forceLeading = false
				break
			}
		}
	}
	trailingTriple := strings.HasSuffix(escaped, `\"""`)
	trailingQuote := strings.HasSuffix(v, `"`) && !trailingTriple
	trailingSlash := strings.HasSuffix(v, `\`)
	forceTrailing := trailingQuote || trailingSlash
	multi := !single || len([]rune(v)) > 70 || forceTrailing || forceLeading || trailingTriple
	var b strings.Builder
	skipLeading := single && v != "" && isBlank(v[0])
	if multi && !skipLeading || forceLeading {
		b.WriteByte('\n')
	}
	b.WriteString(escaped)
	if multi || forceTrailing {
		b.WriteByte('\n')
	}
	return `"""` + b.String() + `"""`
}
