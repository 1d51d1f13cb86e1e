package access

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/gqlkit/gqlkit/errcode"
)

type row struct {
	Title string `json:"headline"`
	Count int32
	Tags  []string
	Name  string
}

func (r *row) Name2(ctx context.Context) (string, error) {
	if ctx == nil {
		return "", errors.New("no context")
	}
	return "from " + r.Name, nil
}

func (r *row) Boom() string { panic("boom") }

func TestFieldReaderRead(t *testing.T) {
	r := &row{Title: "t", Count: 7, Tags: []string{"a"}, Name: "n"}
	ctx := context.Background()
	tests := []struct {
		field  string
		parent any
		want   any // nil: no value
	}{
		{field: "headline", parent: r, want: "t"},
		{field: "count", parent: r, want: int32(7)},
		{field: "name2", parent: r, want: "from n"},
		{field: "title", parent: r}, // a json tag renames the field
		{field: "missing", parent: r},
		{field: "key", parent: map[string]any{"key": 3}, want: 3},
		{field: "key", parent: map[string]int{"key": 4}, want: 4},
		{field: "headline", parent: (*row)(nil)},
	}
	for _, tt := range tests {
		fr := &FieldReader{Name: tt.field}
		v, err := fr.Read(&ctx, reflect.ValueOf(tt.parent))
		if err != nil {
			t.Errorf("%s of %T: %v", tt.field, tt.parent, err)
			continue
		}
		var got any
		if v.IsValid() {
			got = v.Interface()
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s of %T = %#v, want %#v", tt.field, tt.parent, got, tt.want)
		}
	}
	fr := &FieldReader{Name: "boom"}
	_, err := fr.Read(&ctx, reflect.ValueOf(r))
	var pe *errcode.PanicError
	if !errors.As(err, &pe) || pe.Value != "boom" {
		t.Errorf("a panicking method gave %v, want a *errcode.PanicError of \"boom\"", err)
	}
}

func TestDirectReads(t *testing.T) {
	typ := reflect.TypeFor[*row]()
	tests := []struct {
		field string
		leaf  Leaf
		want  Leaf // the direct read's, LeafNone when there is none
	}{
		{field: "headline", leaf: LeafString, want: LeafString},
		{field: "count", leaf: LeafInt, want: LeafInt},
		{field: "tags", leaf: LeafStrings, want: LeafStrings},
		{field: "count", leaf: LeafString, want: LeafNone}, // the Go kind does not match
		{field: "name2", leaf: LeafString, want: LeafNone}, // a method
		{field: "headline", leaf: LeafNone, want: LeafNone},
	}
	for _, tt := range tests {
		fr := &FieldReader{Name: tt.field, Leaf: tt.leaf}
		d := fr.Accessor(typ).Direct
		if d.Leaf != tt.want {
			t.Errorf("%s as %d: direct read %d, want %d", tt.field, tt.leaf, d.Leaf, tt.want)
		}
		if tt.want == LeafInt && d.Size != 4 {
			t.Errorf("%s: size %d, want 4", tt.field, d.Size)
		}
		if fr.Last() != fr.Accessor(typ) {
			t.Errorf("%s: Last is not the accessor used last", tt.field)
		}
	}
	if d := (&FieldReader{Name: "headline", Leaf: LeafString}).Accessor(reflect.TypeFor[row]()).Direct; d.Leaf != LeafNone {
		t.Errorf("a struct value (no pointer) got direct read %d, want none", d.Leaf)
	}
}
