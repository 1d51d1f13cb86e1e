package graphql

import (
	"strings"

	"github.com/gqlkit/gqlkit/graphql/internal/gqlmirror/syntax"
)

// SDL returns the schema in the Schema Definition Language, formatted as
// graphql-js's printSchema formats it: built-in scalars, introspection
// types and the specified directives are left out, and types come in the
// order of [Schema.Types].
func (s *Schema) SDL() string {
	var parts []string
	if s.description != "" || s.query.name != "Query" || s.mutation != nil && s.mutation.name != "Mutation" {
		var b strings.Builder
		b.WriteString(printDescription(s.description, "", true))
		b.WriteString("schema {\n  query: " + s.query.name + "\n")
		if s.mutation != nil {
			b.WriteString("  mutation: " + s.mutation.name + "\n")
		}
		b.WriteString("}")
		parts = append(parts, b.String())
	}
	for _, t := range s.types {
		if isIntrospectionName(t.TypeName()) {
			continue
		}
		var b strings.Builder
		switch x := t.(type) {
		case BuiltinScalar:
			continue
		case *Scalar:
			b.WriteString(printDescription(x.Description, "", true))
			b.WriteString("scalar " + x.Name)
			if x.SpecifiedByURL != "" {
				b.WriteString(" @specifiedBy(url: " + syntax.PrintString(x.SpecifiedByURL) + ")")
			}
		case *Enum:
			b.WriteString(printDescription(x.Description, "", true))
			b.WriteString("enum " + x.Name + " {\n")
			for i, v := range x.Values {
				b.WriteString(printDescription(v.Description, "  ", i == 0))
				b.WriteString("  " + v.Name + printDeprecated(v.DeprecationReason) + "\n")
			}
			b.WriteString("}")
		case *InputObject:
			b.WriteString(printDescription(x.Description, "", true))
			b.WriteString("input " + x.Name + " {\n")
			for i, f := range s.inputs[x].fields {
				b.WriteString(printDescription(f.desc, "  ", i == 0))
				b.WriteString("  " + printInputValue(f) + "\n")
			}
			b.WriteString("}")
		case *Object:
			b.WriteString(printDescription(x.Description, "", true))
			b.WriteString("type " + x.Name + " {\n")
			for i, f := range s.objects[x].fields {
				b.WriteString(printDescription(f.desc, "  ", i == 0))
				b.WriteString("  " + f.name + printArgs(f.args, "  ") + ": " + f.typ.String() + printDeprecated(f.depr) + "\n")
			}
			b.WriteString("}")
		}
		parts = append(parts, b.String())
	}
	return strings.Join(parts, "\n\n")
}

func printArgs(args []*argInfo, indent string) string {
	if len(args) == 0 {
		return ""
	}
	described := false
	for _, a := range args {
		if a.desc != "" {
			described = true
		}
	}
	if !described {
		parts := make([]string, len(args))
		for i, a := range args {
			parts[i] = printInputValue(a)
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	var b strings.Builder
	b.WriteString("(\n")
	for i, a := range args {
		b.WriteString(printDescription(a.desc, "  "+indent, i == 0))
		b.WriteString("  " + indent + printInputValue(a) + "\n")
	}
	b.WriteString(indent + ")")
	return b.String()
}

func printInputValue(a *argInfo) string {
	out := a.name + ": " + a.typ.String()
	if a.defAST != nil {
		out += " = " + syntax.PrintValue(a.defAST)
	}
	return out + printDeprecated(a.depr)
}

func printDeprecated(reason string) string {
	switch reason {
	case "":
		return ""
	case defaultDeprecationReason:
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
