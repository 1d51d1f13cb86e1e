package validate

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
)

// Failure is the messages of one field that failed validation.
type Failure struct {
	// Path names the field: "title" in REST, "input.tags.0" for an item
	// of a GraphQL argument.
	Path string
	// Messages are the field's messages, in the order its rules ran.
	Messages []string
}

// Failures are the failures of one validation, in the order the fields
// first failed. The zero value is an empty list, ready to use; a
// validation passed when it is still empty. Their JSON is an object in
// that order, {"path": ["message", …], …}, the "errors" member of
// Laravel's 422 answer.
type Failures []Failure

// Add appends msg to the messages of path: to its entry when f has one
// (the first, should f hold several), else to a new entry at the end. Add
// looks at every entry; [Failures.Check] indexes them once they are many.
func (f *Failures) Add(path, msg string) {
	if i := f.find(path); i >= 0 {
		(*f)[i].Messages = append((*f)[i].Messages, msg)
		return
	}
	*f = append(*f, Failure{Path: path, Messages: []string{msg}})
}

// find returns the index of path's first entry, or -1.
func (f Failures) find(path string) int {
	for i := range f {
		if f[i].Path == path {
			return i
		}
	}
	return -1
}

// Summary is Laravel's one-line message for the whole failure: the first
// message, followed by " (and 1 more error)" or " (and N more errors)", N
// counting every other message of every field; "The given data was
// invalid." when there is none.
func (f Failures) Summary() string {
	first, n := "", 0
	for _, e := range f {
		for _, m := range e.Messages {
			if n == 0 {
				first = m
			}
			n++
		}
	}
	switch n {
	case 0:
		return "The given data was invalid."
	case 1:
		return first
	case 2:
		return first + " (and 1 more error)"
	default:
		return first + " (and " + strconv.Itoa(n-1) + " more errors)"
	}
}

// Map returns the messages by path, as errcode.Error's Fields holds them,
// or nil when f is empty. The map and its slices are new: changing them
// leaves f alone. Entries that share a path (which Add never makes) have
// their messages joined in order.
func (f Failures) Map() map[string][]string {
	if len(f) == 0 {
		return nil
	}
	m := make(map[string][]string, len(f))
	for _, e := range f {
		if msgs, ok := m[e.Path]; ok {
			m[e.Path] = append(msgs, e.Messages...)
			continue
		}
		m[e.Path] = slices.Clone(e.Messages)
	}
	return m
}

// MarshalJSON writes {"path": ["message", …], …} in f's order, with <, >
// and & unescaped as PHP's json_encode writes them; an empty f is {}.
func (f Failures) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	for i, e := range f {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := enc.Encode(e.Path); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // Encode's newline
		b.WriteByte(':')
		if err := enc.Encode(e.Messages); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Check runs rules, in order, on value, the value of the field at path,
// and adds a message for each rule that fails. Messages name the field by
// [Attribute](path); use [Failures.CheckAs] to name it otherwise. value is
// [Missing] for a field that was not given. When an implicit rule
// ([Required]) fails, the field's remaining rules are not run.
func (f *Failures) Check(path string, value any, rules ...Rule) {
	c := checker{f: f}
	c.run(&field{path: path, derive: true}, value, rules)
}

// CheckAs is [Failures.Check] with the attribute messages show given
// explicitly: the GraphQL engine reports the path "input.title" with the
// messages of the attribute "title".
func (f *Failures) CheckAs(path, attribute string, value any, rules ...Rule) {
	c := checker{f: f}
	c.run(&field{path: path, attribute: attribute}, value, rules)
}

// field names the field a value belongs to: a path and an attribute given
// at the top, or an item of a parent field. Its names are built only when
// a message needs them.
type field struct {
	parent          *field
	index           int
	path, attribute string
	derive          bool // the attribute is Attribute(path)
	named           bool // path and attribute are set
}

// names returns the field's path and attribute.
func (fl *field) names() (path, attribute string) {
	if !fl.named {
		switch {
		case fl.parent != nil:
			path, attribute := fl.parent.names()
			i := "." + strconv.Itoa(fl.index)
			fl.path, fl.attribute = path+i, attribute+i
		case fl.derive:
			fl.attribute = Attribute(fl.path)
		}
		fl.named = true
	}
	return fl.path, fl.attribute
}

// indexFrom is the number of entries from which a checker finds paths
// through a map: Each over a long list adds a new path per failing item,
// and a search through every entry for each would be quadratic.
const indexFrom = 16

// checker runs the rules of one Check call.
type checker struct {
	f     *Failures
	index map[string]int // path → entry, once there are indexFrom entries
}

// add adds msg to path's messages, as Failures.Add does.
func (c *checker) add(path, msg string) {
	f := *c.f
	if c.index == nil {
		if len(f) < indexFrom {
			c.f.Add(path, msg)
			return
		}
		c.index = make(map[string]int, 2*len(f))
		for i, e := range f {
			if _, ok := c.index[e.Path]; !ok {
				c.index[e.Path] = i
			}
		}
	}
	if i, ok := c.index[path]; ok {
		f[i].Messages = append(f[i].Messages, msg)
		return
	}
	c.index[path] = len(f)
	*c.f = append(f, Failure{Path: path, Messages: []string{msg}})
}

// run runs rules on x, the value of fl.
func (c *checker) run(fl *field, x any, rules []Rule) {
	v := see(x)
	notString := false
	for _, r := range rules {
		switch {
		case r.flags&isEach != 0:
			c.each(fl, &v, r.each)
			continue
		case r.flags&isTrimmed != 0:
			c.run(fl, trimmed(&v), r.each)
			continue
		case r.check == nil, notString && r.flags&isSize != 0:
			continue
		}
		template := r.check(v)
		if template == "" {
			continue
		}
		if r.message != "" {
			template = r.message
		}
		path, attribute := fl.names()
		c.add(path, r.expand(template, attribute))
		if r.flags&implicit != 0 {
			return
		}
		notString = notString || r.flags&isString != 0
	}
}

// trimmed is v as Trimmed sees it: a string trimmed, and nil when that
// leaves it empty.
func trimmed(v *value) any {
	if v.kind != kindString {
		return v.v
	}
	if s := Trim(v.str); s != "" {
		return s
	}
	return nil
}

// each runs rules on every item of v when it is a list.
func (c *checker) each(fl *field, v *value, rules []Rule) {
	if v.kind != kindList || len(rules) == 0 {
		return
	}
	if list, ok := v.v.([]any); ok {
		for i, item := range list {
			c.run(&field{parent: fl, index: i}, item, rules)
		}
		return
	}
	rv := reflect.ValueOf(v.v)
	for i := range rv.Len() {
		c.run(&field{parent: fl, index: i}, rv.Index(i).Interface(), rules)
	}
}
