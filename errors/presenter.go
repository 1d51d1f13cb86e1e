package errors

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/internal/ctxlog"
	"github.com/gqlkit/gqlkit/internal/errclass"
	"github.com/gqlkit/gqlkit/internal/httpjson"
)

// Presenter turns any error into what a client may see, and logs what the
// client may not. The zero value is ready to use: messages masked, logging
// through the logger of the request's reqlog.Handler, else [slog.Default].
//
// A Presenter is a small value; copy it freely. Its methods are safe for
// concurrent use.
type Presenter struct {
	// Debug shows the real text of unknown errors instead of
	// "Internal server error."; the code stays INTERNAL_SERVER_ERROR.
	// Turn it on in development only (a program's debug setting, such
	// as the example server's APP_DEBUG).
	Debug bool
	// Logger receives the log lines, each logged with the request's
	// context and carrying the request id that reqlog gave the request
	// ("request_id"). nil means the logger of the request's
	// reqlog.Handler ([reqlog.Logger]), else [slog.Default]; use
	// slog.New(slog.DiscardHandler) to log nothing.
	Logger *slog.Logger
	// Hooks map errors before they are classified and report the masked
	// ones (see [Hooks]). The zero value does neither and costs nothing.
	Hooks Hooks
}

// Body is the JSON body of a REST error answer: {"message": "..."}, plus
// "errors" with the per-field messages of a validation failure (Laravel's
// shape).
type Body struct {
	Message string              `json:"message"`
	Errors  map[string][]string `json:"errors,omitempty"`
}

// GraphQL returns the GraphQL error object clients see for err, logging err
// when it is unknown (see the package documentation). The result keeps the
// path and locations of the *gqlerror.Error that err is or wraps, also when
// [Hooks.Map] replaced the resolver's error; its extensions hold at least
// "code". The result has no cause (its Err is nil), so presenting it again
// changes nothing, logs nothing and reports nothing.
//
// A nil err gives nil.
func (p Presenter) GraphQL(ctx context.Context, err error) *gqlerror.Error {
	if err == nil {
		return nil
	}
	path, locs := errclass.Position(err)
	if p.Hooks.Map != nil {
		err = p.mapError(ctx, err)
	}
	v := classify(err)
	v = clientGone(ctx, err, v)
	p.log(ctx, err, v, path)
	return errclass.GraphQL(v, p.message(err, v), path, locs)
}

// REST returns the status and body of a JSON answer to err, after
// [Hooks.Map], logging err when it is unknown (see the package
// documentation). body is a [Body].
func (p Presenter) REST(ctx context.Context, err error) (status int, body any) {
	if p.Hooks.Map != nil {
		err = p.mapError(ctx, err)
	}
	v := classify(err)
	v = clientGone(ctx, err, v)
	p.log(ctx, err, v, nil)
	b := Body{Message: p.message(err, v)}
	if len(v.Fields) > 0 {
		b.Errors = v.Fields
	}
	return v.Status, b
}

// WriteREST answers r with err as JSON (see [Presenter.REST]). It sets
// Content-Type to application/json and, on a 401 without one,
// WWW-Authenticate to Bearer.
func (p Presenter) WriteREST(w http.ResponseWriter, r *http.Request, err error) {
	status, body := p.REST(r.Context(), err)
	if status == http.StatusUnauthorized && w.Header().Get("WWW-Authenticate") == "" {
		w.Header().Set("WWW-Authenticate", "Bearer")
	}
	httpjson.WriteValue(w, status, body)
}

// message is the client message for err: the verdict's, or the real text of
// a masked error in debug mode.
func (p Presenter) message(err error, v errclass.Verdict) string {
	if v.Masked && p.Debug {
		return errclass.LogText(err)
	}
	return v.Message
}

// resolverError returns the error a resolver or handler returned: the cause
// of the engine's *gqlerror.Error wrapper around it, or err itself. ok is
// false for an error the engine, parser or validator made (a GraphQL error
// without a cause).
func resolverError(err error) (cause error, ok bool) {
	switch e := err.(type) {
	case *gqlerror.Error:
		if e == nil || e.Err == nil {
			return err, false
		}
		return e.Err, true
	case *gqlerror.ErrorWithSources:
		if e == nil || e.Err == nil {
			return err, false
		}
		return e.Err, true
	}
	return err, true
}

// clientGone turns the cancellation of a request whose client disconnected
// into a known error, logged at info level instead of as a server error.
func clientGone(ctx context.Context, err error, v errclass.Verdict) errclass.Verdict {
	if !v.Masked || v.Panic != nil || ctx == nil || !errors.Is(ctx.Err(), context.Canceled) || !errors.Is(err, context.Canceled) {
		return v
	}
	c := errcode.CodeClientClosedRequest
	return errclass.Verdict{Code: c, Message: c.DefaultMessage(), Status: c.Status(), Cause: err}
}

// log writes one line for an unknown error (level error) or for a known
// error with a hidden cause (level info), and nothing otherwise. It then
// hands an unknown error to [Hooks.Report], whether the line was written
// or the logger is disabled.
func (p Presenter) log(ctx context.Context, err error, v errclass.Verdict, path ast.Path) {
	if !v.Masked && v.Cause == nil {
		return
	}
	p.writeLog(ctx, err, v, path)
	if v.Masked && p.Hooks.Report != nil {
		p.report(ctx, err, v, path)
	}
}

// writeLog writes the line of [Presenter.log].
func (p Presenter) writeLog(ctx context.Context, err error, v errclass.Verdict, path ast.Path) {
	level, msg := slog.LevelInfo, "request failed"
	if v.Masked {
		level, msg = slog.LevelError, "internal server error"
	}
	if !ctxlog.Enabled(ctx, p.Logger, level) {
		return
	}
	attrs := make([]slog.Attr, 0, 6)
	attrs = append(attrs, slog.String("error", errclass.LogText(err)),
		slog.String("code", string(v.Code)), slog.Int("status", v.Status))
	if len(path) > 0 {
		attrs = append(attrs, slog.String("graphql_path", path.String()))
	}
	if v.Panic != nil {
		attrs = append(attrs, slog.String("panic", panicText(v.Panic)), slog.String("stack", string(v.Panic.StackTrace())))
	}
	ctxlog.Log(ctx, p.Logger, level, msg, attrs...)
}

// panicText is the text of a recovered panic's value for logs.
func panicText(p errcode.Panic) string {
	if e, ok := p.(*errcode.PanicError); ok && e.Text != "" {
		return e.Text
	}
	return fmt.Sprint(p.PanicValue()) // fmt survives a String method that panics
}
