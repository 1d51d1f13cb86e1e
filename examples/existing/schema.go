package main

import (
	"context"
	"errors"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/errcode"
	"github.com/gqlkit/gqlkit/graphql"
	"github.com/gqlkit/gqlkit/validate"
)

// signUpInput is the service's own DTO, snake_case for its REST clients;
// the graphql tags name its fields for the schema.
type signUpInput struct {
	Email       string `json:"email"`
	Password    string `json:"password"`
	DisplayName string `json:"display_name" graphql:"displayName"`
}

type signUpArgs struct {
	Input signUpInput `json:"input"`
}

type renameArgs struct {
	DisplayName string `json:"display_name" graphql:"displayName"`
}

// session is what signUp answers: the account and its access token.
type session struct {
	Token   string  `json:"token"`
	Account account `json:"account"`
}

// resolvers answer the schema's fields from the service's database and
// identity provider.
type resolvers struct {
	db       *database
	identity *identity
	cost     int // bcrypt cost
	now      func() time.Time
}

// passwordBytes refuses a password longer than bcrypt reads (72 bytes,
// not characters: validate.Max counts characters).
var passwordBytes = validate.Func(func(v any) string {
	if s, ok := v.(string); ok && len(s) > auth.MaxPasswordBytes {
		return "The :attribute field must not be greater than 72 bytes."
	}
	return ""
})

// newSchema builds the service's GraphQL schema: the signed-in account
// (me), a public signUp, and a rename that needs a token.
func newSchema(r *resolvers) (*graphql.Schema, error) {
	nonNullString := graphql.NewNonNull(graphql.String)
	displayNameRules := []validate.Rule{validate.Trimmed(validate.Required(), validate.Max(50))}
	accountType := &graphql.Object{Name: "Account", Fields: graphql.Fields{
		{Name: "id", Type: graphql.NewNonNull(graphql.ID), Description: "The account's UUID."},
		{Name: "email", Type: nonNullString},
		{Name: "displayName", Type: nonNullString},
		{Name: "memberId", Type: graphql.NewNonNull(graphql.Int), Description: "The user_id of the account's articles."},
	}}
	sessionType := &graphql.Object{Name: "Session", Fields: graphql.Fields{
		{Name: "token", Type: nonNullString, Description: "An RS256 access token: Authorization: Bearer <token>."},
		{Name: "account", Type: graphql.NewNonNull(accountType)},
	}}
	signUpInputType := &graphql.InputObject{Name: "SignUpInput", Fields: []graphql.InputField{
		{Name: "email", Type: nonNullString, Rules: []validate.Rule{validate.Trimmed(validate.Required(), validate.Email(), validate.Max(254))}},
		{Name: "password", Type: nonNullString, Rules: []validate.Rule{validate.Min(8), passwordBytes}},
		{Name: "displayName", Type: nonNullString, Rules: displayNameRules},
	}}
	query := &graphql.Object{Name: "Query", Fields: graphql.Fields{
		{Name: "me", Type: accountType, Description: "The account of the request's token; null without one.",
			Typed: graphql.Resolver(r.me)},
	}}
	mutation := &graphql.Object{Name: "Mutation", Fields: graphql.Fields{
		{Name: "signUp", Type: graphql.NewNonNull(sessionType), Public: true,
			Description: "Creates an account and signs it in. Needs no token.",
			Args:        []graphql.Argument{{Name: "input", Type: graphql.NewNonNull(signUpInputType)}},
			Typed:       graphql.Resolver(r.signUp)},
		{Name: "rename", Type: graphql.NewNonNull(accountType),
			Description: "Changes the display name of the token's account.",
			Args:        []graphql.Argument{{Name: "displayName", Type: nonNullString, Rules: displayNameRules}},
			Typed:       graphql.Resolver(r.rename)},
	}}
	return graphql.NewSchema(graphql.SchemaConfig{Query: query, Mutation: mutation})
}

func (r *resolvers) me(ctx context.Context, _ any, _ struct{}) (*account, error) {
	id, ok := auth.Subject(ctx) // the account's UUID, from the token's sub
	if !ok {
		return nil, nil
	}
	a, found, err := r.db.findAccount(ctx, id)
	if err != nil || !found {
		return nil, err
	}
	return &a, nil
}

func (r *resolvers) signUp(ctx context.Context, _ any, args signUpArgs) (session, error) {
	in := args.Input
	hash, err := bcrypt.GenerateFromPassword([]byte(in.Password), r.cost)
	if err != nil {
		return session{}, err
	}
	a, err := r.db.createAccount(ctx, validate.Trim(in.Email), validate.Trim(in.DisplayName), hash)
	if errors.Is(err, errEmailTaken) {
		return session{}, errcode.ValidationFailed("", map[string][]string{"input.email": {"The email has already been taken."}})
	}
	if err != nil {
		return session{}, err
	}
	token, err := r.identity.token(a.ID, r.now())
	if err != nil {
		return session{}, err
	}
	return session{Token: token, Account: a}, nil
}

func (r *resolvers) rename(ctx context.Context, _ any, args renameArgs) (account, error) {
	id, ok := auth.Subject(ctx) // the gate let the operation through: there is one
	if !ok {
		return account{}, errcode.Unauthenticated("")
	}
	if err := r.db.rename(ctx, id, validate.Trim(args.DisplayName)); err != nil {
		return account{}, err
	}
	a, found, err := r.db.findAccount(ctx, id)
	if err == nil && !found {
		err = errcode.NotFound("")
	}
	return a, err
}
