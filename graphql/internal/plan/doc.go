// Package plan holds the parts of planning an operation that read only its
// document: the bounds on its shape once fragments are expanded
// ([CheckShape]), the @skip and @include conditions of its selections
// ([StaticCondition], [Conditions]) and the copies of the literals a plan
// may coerce after the document is released ([CopyArgs], [OwnDefaults]),
// and the cost of an operation once its plan is folded ([CostSet]).
//
// Package graphql plans operations with these against its compiled
// schema; the errors returned here carry no Err, which the caller sets.
package plan
