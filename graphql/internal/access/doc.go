// Package access reads fields from Go values for the engine, without
// knowing the schema's types: the default resolver of a field without one
// ([FieldReader], through an [Accessor] per parent Go type), the names
// struct fields answer to ([TagName]), and the direct reads of leaf
// fields from a struct's memory ([DirectRead]).
package access
