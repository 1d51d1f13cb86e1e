package relay

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/internal/cursor"
)

// Page is the value of a connection field: what XConnection's fields
// read.
type Page[T any] struct {
	Edges    []Edge[T]
	PageInfo PageInfo
	// TotalCount is [Config].Count's answer when totalCount was
	// selected, else 0.
	TotalCount int
}

// Edge is one node of a page with its cursor.
type Edge[T any] struct {
	Cursor string
	Node   T
}

// PageInfo is the value of the PageInfo type.
type PageInfo struct {
	HasNextPage     bool
	HasPreviousPage bool
	StartCursor     *string
	EndCursor       *string
}

// The messages of the refused arguments (BAD_USER_INPUT).
const (
	messageNegative = "Argument %q must not be negative."
	messageBoth     = `Arguments "first" and "last" must not be given together.`
	messageCursor   = "Argument %q is not a cursor of this connection."
)

// badInput returns the BAD_USER_INPUT error with the message format
// gives.
func badInput(format string, a ...any) error {
	return errcode.New(errcode.CodeBadUserInput, fmt.Sprintf(format, a...))
}

// resolve is the connection field's resolver.
func (c *Connection[P, T, K]) resolve(ctx context.Context, parent P, args graphql.Args, info graphql.ResolveInfo) (*Page[T], error) {
	codec := c.codec(info)
	req, err := c.request(args, codec)
	if err != nil {
		return nil, err
	}
	req.Info = info
	page := &Page[T]{Edges: []Edge[T]{}}
	if info.IsSelected("edges") || info.IsSelected("pageInfo") {
		rows, err := c.load(ctx, parent, req)
		if err != nil {
			return nil, err
		}
		if err := c.fill(page, rows, req, codec); err != nil {
			return nil, err
		}
	}
	if c.cfg.Count != nil && info.IsSelected("totalCount") {
		n, err := c.cfg.Count(ctx, parent, args)
		if err != nil {
			return nil, err
		}
		page.TotalCount = n
	}
	return page, nil
}

// codec returns the cursor codec of the field being resolved: its cursors
// are bound to Parent.field.
func (c *Connection[P, T, K]) codec(info graphql.ResolveInfo) cursor.Codec {
	field := info.FieldName()
	if pt := info.ParentType(); pt != nil {
		field = pt.Name + "." + field
	}
	return cursor.New(c.conn.Name+" "+field+" "+c.shape, c.cfg.Secret)
}

// request validates the arguments and returns the page they ask for.
func (c *Connection[P, T, K]) request(args graphql.Args, codec cursor.Codec) (Request[K], error) {
	first, hasFirst, err := sizeArg(args, "first")
	if err != nil {
		return Request[K]{}, err
	}
	last, hasLast, err := sizeArg(args, "last")
	if err != nil {
		return Request[K]{}, err
	}
	if hasFirst && hasLast {
		return Request[K]{}, badInput(messageBoth)
	}
	req := Request[K]{Args: args, Limit: c.defSize + 1}
	switch {
	case hasFirst:
		req.Limit = min(first, c.maxSize) + 1
	case hasLast:
		req.Limit, req.Backward = min(last, c.maxSize)+1, true
	}
	if req.After, err = c.cursorArg(args, "after", codec); err != nil {
		return Request[K]{}, err
	}
	if req.Before, err = c.cursorArg(args, "before", codec); err != nil {
		return Request[K]{}, err
	}
	return req, nil
}

// sizeArg reads first or last: absent and null are not given.
func sizeArg(args graphql.Args, name string) (n int, given bool, err error) {
	v, ok := args.Value(name).(int)
	if !ok {
		return 0, false, nil
	}
	if v < 0 {
		return 0, false, badInput(messageNegative, name)
	}
	return v, true, nil
}

// cursorArg decodes the key of after or before; nil when absent or null.
func (c *Connection[P, T, K]) cursorArg(args graphql.Args, name string, codec cursor.Codec) (*K, error) {
	s, ok := args.Value(name).(string)
	if !ok {
		return nil, nil
	}
	payload, err := codec.Decode(s)
	if err != nil {
		return nil, badInput(messageCursor, name)
	}
	var k K
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&k); err != nil || dec.Decode(new(json.RawMessage)) != io.EOF {
		// A cursor of this field, tagged as such, whose key no longer
		// reads as K: the key type changed since it was made.
		return nil, badInput(messageCursor, name)
	}
	return &k, nil
}

// fill makes the page's edges and pageInfo from the rows the load function
// read for req.
func (c *Connection[P, T, K]) fill(page *Page[T], rows []T, req Request[K], codec cursor.Codec) error {
	more := len(rows) > req.Size()
	rows = rows[:min(len(rows), req.Size())]
	if req.Backward {
		rows = slices.Clone(rows)
		slices.Reverse(rows)
		page.PageInfo.HasPreviousPage = more
	} else {
		page.PageInfo.HasNextPage = more
	}
	page.Edges = make([]Edge[T], len(rows))
	for i, row := range rows {
		key, err := json.Marshal(c.key(row))
		if err != nil {
			return fmt.Errorf("relay: %s: the key of a node: %w", c.conn.Name, err)
		}
		page.Edges[i] = Edge[T]{Cursor: codec.Encode(key), Node: row}
	}
	if n := len(page.Edges); n > 0 {
		start, end := page.Edges[0].Cursor, page.Edges[n-1].Cursor
		page.PageInfo.StartCursor, page.PageInfo.EndCursor = &start, &end
	}
	return nil
}
