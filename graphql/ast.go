package graphql

import (
	"github.com/gqlkit/gqlkit/graphql/internal/schema"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator"
)

func deprecatedDirective(reason string) ast.DirectiveList {
	if reason == "" {
		return nil
	}
	return ast.DirectiveList{{Name: "deprecated", Arguments: ast.ArgumentList{{Name: "reason",
		Value: &ast.Value{Kind: ast.StringValue, Raw: reason}}}}}
}

func astArgs(args []*schema.Arg) ast.ArgumentDefinitionList {
	var out ast.ArgumentDefinitionList
	for _, a := range args {
		out = append(out, &ast.ArgumentDefinition{Name: a.Name, Description: a.Desc, Type: a.Type.AST(),
			DefaultValue: a.DefaultAST, Directives: deprecatedDirective(a.Depr)})
	}
	return out
}

// buildAST produces the gqlparser schema that validates documents.
func (s *Schema) buildAST() (*ast.Schema, error) {
	doc := &ast.SchemaDocument{}
	for _, t := range s.types {
		def := &ast.Definition{Name: t.TypeName(), BuiltIn: isIntrospectionName(t.TypeName())}
		switch x := t.(type) {
		case BuiltinScalar:
			def.Kind, def.Description, def.BuiltIn = ast.Scalar, x.Description(), true
		case *Scalar:
			def.Kind, def.Description = ast.Scalar, x.Description
			if x.SpecifiedByURL != "" {
				def.Directives = ast.DirectiveList{{Name: "specifiedBy", Arguments: ast.ArgumentList{{Name: "url",
					Value: &ast.Value{Kind: ast.StringValue, Raw: x.SpecifiedByURL}}}}}
			}
		case *Enum:
			def.Kind, def.Description = ast.Enum, x.Description
			for _, v := range x.Values {
				def.EnumValues = append(def.EnumValues, &ast.EnumValueDefinition{Name: v.Name, Description: v.Description,
					Directives: deprecatedDirective(v.DeprecationReason)})
			}
		case *InputObject:
			def.Kind, def.Description = ast.InputObject, x.Description
			for _, f := range s.inputs[x].Fields {
				def.Fields = append(def.Fields, &ast.FieldDefinition{Name: f.Name, Description: f.Desc, Type: f.Type.AST(),
					DefaultValue: f.DefaultAST, Directives: deprecatedDirective(f.Depr)})
			}
		case *Object:
			def.Kind, def.Description = ast.Object, x.Description
			def.Fields, def.Interfaces = astFields(s.objects[x].Fields), interfaceNames(x.Interfaces)
		case *Interface:
			def.Kind, def.Description = ast.Interface, x.Description
			def.Fields, def.Interfaces = astFields(s.abstracts[x].Fields), interfaceNames(x.Interfaces)
		case *Union:
			def.Kind, def.Description = ast.Union, x.Description
			for _, m := range x.Types {
				def.Types = append(def.Types, m.Name)
			}
		}
		doc.Definitions = append(doc.Definitions, def)
	}
	for _, d := range s.c.Directives {
		dd := &ast.DirectiveDefinition{Name: d.Name, Description: d.Desc, Arguments: astArgs(d.Args)}
		for _, l := range d.Locations {
			dd.Locations = append(dd.Locations, ast.DirectiveLocation(l))
		}
		doc.Directives = append(doc.Directives, dd)
	}
	root := &ast.SchemaDefinition{Description: s.c.Description}
	root.OperationTypes = append(root.OperationTypes, &ast.OperationTypeDefinition{Operation: ast.Query, Type: s.c.Query.Name})
	if s.c.Mutation != nil {
		root.OperationTypes = append(root.OperationTypes, &ast.OperationTypeDefinition{Operation: ast.Mutation, Type: s.c.Mutation.Name})
	}
	doc.Schema = append(doc.Schema, root)
	out, err := validator.ValidateSchemaDocument(doc)
	if err != nil {
		return nil, err
	}
	// gqlparser counts the interfaces that implement an interface among
	// its possible types; graphql-js, whose validation rules the kit
	// follows (possible fragment spreads, the types suggested for an
	// unknown field), counts only objects, in the order the schema
	// compiled them.
	for _, info := range s.abstracts {
		if info.Type.Kind == schema.KindInterface {
			defs := make([]*ast.Definition, 0, len(info.Possible))
			for _, o := range info.Possible {
				defs = append(defs, out.Types[o.Name])
			}
			out.PossibleTypes[info.Name] = defs
		}
	}
	return out, nil
}

func astFields(fields []*schema.Field) ast.FieldList {
	var out ast.FieldList
	for _, f := range fields {
		out = append(out, &ast.FieldDefinition{Name: f.Name, Description: f.Desc, Type: f.Type.AST(),
			Arguments: astArgs(f.Args), Directives: deprecatedDirective(f.Depr)})
	}
	return out
}

// interfaceNames returns the names of ifaces, which NewSchema checked are
// not nil.
func interfaceNames(ifaces []*Interface) []string {
	var out []string
	for _, it := range ifaces {
		out = append(out, it.Name)
	}
	return out
}
