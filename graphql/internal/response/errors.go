package response

import (
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
)

// internalErrorJSON stands for an error that cannot be written.
const internalErrorJSON = `{"message":"` + errcode.MessageInternal + `","extensions":{"code":"` + string(errcode.CodeInternal) + `"}}`

// AppendError writes one error object.
func AppendError(dst []byte, e *gqlerror.Error) []byte {
	if e == nil {
		return append(dst, internalErrorJSON...)
	}
	var ext []byte
	if len(e.Extensions) > 0 {
		var err error
		if ext, err = marshal(e.Extensions); err != nil {
			return append(dst, internalErrorJSON...)
		}
	}
	dst = append(dst, `{"message":`...)
	dst = AppendString(dst, e.Message)
	n := 0
	for _, l := range e.Locations {
		if l.Line < 1 || l.Column < 1 {
			continue
		}
		if n == 0 {
			dst = append(dst, `,"locations":[`...)
		} else {
			dst = append(dst, ',')
		}
		n++
		dst = append(dst, `{"line":`...)
		dst = strconv.AppendInt(dst, int64(l.Line), 10)
		dst = append(dst, `,"column":`...)
		dst = strconv.AppendInt(dst, int64(l.Column), 10)
		dst = append(dst, '}')
	}
	if n > 0 {
		dst = append(dst, ']')
	}
	if len(e.Path) > 0 {
		dst = append(dst, `,"path":[`...)
		for i, p := range e.Path {
			if i > 0 {
				dst = append(dst, ',')
			}
			switch p := p.(type) {
			case ast.PathIndex:
				dst = strconv.AppendInt(dst, int64(p), 10)
			case ast.PathName:
				dst = AppendString(dst, string(p))
			}
		}
		dst = append(dst, ']')
	}
	if ext != nil {
		dst = append(dst, `,"extensions":`...)
		dst = append(dst, ext...)
	}
	return append(dst, '}')
}
