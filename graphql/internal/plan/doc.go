// Package plan turns an operation of a validated document into the plan
// the executor walks ([Prepare], [Operation]): for each selection set and
// object type, the fields to execute in response order ([Selection],
// [Field]), with fragments expanded, static @skip and @include applied,
// fields looked up in the compiled schema and literal arguments coerced
// once. What depends on variables is decided per execution: the
// conditions of @skip and @include with a variable ([Conditions],
// [Field.ChildPlan], a bounded number of plans kept per field), arguments
// that refer to variables, the cost of the operation ([Operation.Cost],
// folded once into a [CostSet]). Fields of interfaces and unions get a
// plan per possible object ([Field.ObjectPlan]), shared between cousins
// and bounded by [MaxSelections].
//
// It also bounds a document's shape before anything is planned
// ([CheckShape]) and answers what a resolver asks of its field
// ([Field.Path], [Field.SelectedFields], [Field.IsSelected]). It reads the
// compiled schema (package schema) only; errors returned here carry no
// Err, which the caller sets.
package plan
