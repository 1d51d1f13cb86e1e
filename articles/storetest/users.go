package storetest

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/gqlkit/gqlkit/articles"
	"github.com/gqlkit/gqlkit/auth"
	"github.com/gqlkit/gqlkit/errcode"
)

func testUsers(t *testing.T, newStore func(t *testing.T) Store) {
	ctx := context.Background()

	t.Run("PasswordHash", func(t *testing.T) {
		s := newStore(t)
		hash := []byte("$2a$10$7EqJtq98hPqEX7fNZaFWoOhi5BWX4Z3ZWW7dzhsPvr5X7OKQeJZHq")
		ada, err := s.CreateUser(ctx, "Ada", "ada@example.com", hash)
		if err != nil {
			t.Fatalf("CreateUser error: %v", err)
		}
		bob := addUser(t, s, "bob")
		if ada <= 0 || bob <= 0 || ada == bob {
			t.Fatalf("CreateUser ids = %d and %d, want two different positive ids", ada, bob)
		}
		id, got, err := s.PasswordHash(ctx, "ada@example.com")
		if err != nil || id != ada || !bytes.Equal(got, hash) {
			t.Errorf("PasswordHash = %d, %q, %v; want %d, %q, nil", id, got, err, ada, hash)
		}
	})

	t.Run("UnknownEmail", func(t *testing.T) {
		s := newStore(t)
		addUser(t, s, "ada")
		for _, email := range []string{"nobody@example.com", "ADA@example.com", " ada@example.com", ""} {
			id, hash, err := s.PasswordHash(ctx, email)
			if !errors.Is(err, errcode.ErrNotFound) || !errors.Is(err, auth.ErrUserNotFound) {
				t.Errorf("PasswordHash(%q) error = %v, want one matching errcode.ErrNotFound and auth.ErrUserNotFound", email, err)
			}
			if id != 0 || hash != nil {
				t.Errorf("PasswordHash(%q) = %d, %q; want 0, nil", email, id, hash)
			}
		}
	})

	t.Run("EmailTaken", func(t *testing.T) {
		s := newStore(t)
		ada := addUser(t, s, "ada")
		id, err := s.CreateUser(ctx, "Impostor", "ada@example.com", []byte("other hash"))
		if !errors.Is(err, auth.ErrEmailTaken) || id != 0 {
			t.Errorf("CreateUser with a taken address = %d, %v; want 0 and an error matching ErrEmailTaken", id, err)
		}
		gotID, hash, err := s.PasswordHash(ctx, "ada@example.com")
		if err != nil || gotID != ada || string(hash) != "hash of ada" {
			t.Errorf("after the refusal PasswordHash = %d, %q, %v; want %d, %q, nil", gotID, hash, err, ada, "hash of ada")
		}
	})

	t.Run("DeleteUser", func(t *testing.T) {
		s := newStore(t)
		ada := addUser(t, s, "ada")
		bob := addUser(t, s, "bob")
		if err := s.DeleteUser(ctx, ada); err != nil {
			t.Fatalf("DeleteUser error: %v", err)
		}
		if _, _, err := s.PasswordHash(ctx, "ada@example.com"); !errors.Is(err, errcode.ErrNotFound) {
			t.Errorf("PasswordHash of a deleted user error = %v, want ErrNotFound", err)
		}
		if id, _, err := s.PasswordHash(ctx, "bob@example.com"); err != nil || id != bob {
			t.Errorf("PasswordHash of another user = %d, %v; want %d, nil", id, err, bob)
		}
		if err := s.DeleteUser(ctx, ada); !errors.Is(err, errcode.ErrNotFound) {
			t.Errorf("DeleteUser again error = %v, want ErrNotFound", err)
		}
		if err := s.DeleteUser(ctx, 987654); !errors.Is(err, errcode.ErrNotFound) {
			t.Errorf("DeleteUser of an unknown id error = %v, want ErrNotFound", err)
		}
	})

	t.Run("IDsNotReused", func(t *testing.T) {
		// A token names its user by id: a new user must never get the id
		// of a deleted one, or old tokens would act for them.
		s := newStore(t)
		addUser(t, s, "ada")
		bob := addUser(t, s, "bob")
		if err := s.DeleteUser(ctx, bob); err != nil {
			t.Fatalf("DeleteUser error: %v", err)
		}
		if carl := addUser(t, s, "carl"); carl <= bob {
			t.Errorf("new user id = %d after deleting %d, want a larger one", carl, bob)
		}
	})
}

func testDeleteUser(t *testing.T, newStore func(t *testing.T) Store) {
	ctx := context.Background()
	s := newStore(t)
	ada := addUser(t, s, "ada")
	bob := addUser(t, s, "bob")
	adas := []articles.Article{
		addArticle(t, s, articles.NewArticle{UserID: ada, Title: "A1", Body: "b", Published: true, CreatedAt: at(1)}),
		addArticle(t, s, articles.NewArticle{UserID: ada, Title: "A2", Body: "b", Published: true, CreatedAt: at(2)}),
		addArticle(t, s, articles.NewArticle{UserID: ada, Title: "A3", Body: "b", CreatedAt: at(3)}),
	}
	bobs := addArticle(t, s, articles.NewArticle{UserID: bob, Title: "B1", Body: "b", Published: true, CreatedAt: at(4)})

	if err := s.DeleteUser(ctx, ada); err != nil {
		t.Fatalf("DeleteUser error: %v", err)
	}
	p, err := listPage(ctx, s, 10, 0)
	if err != nil {
		t.Fatalf("ListPublished error: %v", err)
	}
	if p.Total != 1 || len(p.Articles) != 1 || p.Articles[0].ID != bobs.ID {
		t.Errorf("after deleting the author ListPublished = %v (total %d), want only [%d]", ids(p.Articles), p.Total, bobs.ID)
	}
	for _, a := range adas {
		if err := s.DeleteArticle(ctx, a.ID, bob); !errors.Is(err, errcode.ErrNotFound) {
			t.Errorf("DeleteArticle of the deleted user's article %d error = %v, want ErrNotFound", a.ID, err)
		}
	}
	if _, err := s.FindPublished(ctx, adas[0].ID); !errors.Is(err, errcode.ErrNotFound) {
		t.Errorf("FindPublished of the deleted user's article error = %v, want ErrNotFound", err)
	}
}
