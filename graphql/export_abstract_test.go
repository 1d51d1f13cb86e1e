package graphql

import "reflect"

// PossibleNames returns the names of the possible objects of the interface
// or union called name, as the schema compiled them (nil when there is no
// such abstract type).
func (s *Schema) PossibleNames(name string) []string {
	info := s.abstracts[s.named[name]]
	if info == nil {
		return nil
	}
	out := []string{}
	for _, o := range info.Possible {
		if info.ByName[o.Name] != o {
			return []string{"byName disagrees on " + o.Name}
		}
		out = append(out, o.Name)
	}
	return out
}

// ObjectOfGoType returns the name of the object NewSchema learned Go type
// t for, among the possible objects of the abstract type called name: ""
// when it learned none, "ambiguous" when it learned more than one.
func (s *Schema) ObjectOfGoType(name string, t reflect.Type) string {
	info := s.abstracts[s.named[name]]
	if info == nil {
		return ""
	}
	o, ok := info.ByGoType[t]
	switch {
	case !ok:
		return ""
	case o == nil:
		return "ambiguous"
	}
	return o.Name
}

// HasIsTypeOf reports whether the object called name has an IsTypeOf, as
// the schema compiled it.
func (s *Schema) HasIsTypeOf(name string) bool {
	o, _ := s.named[name].(*Object)
	return o != nil && s.objects[o].IsTypeOf != nil
}

// HasResolveType reports whether the abstract type called name has a
// ResolveType, as the schema compiled it.
func (s *Schema) HasResolveType(name string) bool {
	info := s.abstracts[s.named[name]]
	return info != nil && info.ResolveType != nil
}
