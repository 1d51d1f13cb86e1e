package sample

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestLoad(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	all := s.Posts(1000)
	if len(all) != MaxFirst {
		t.Fatalf("%d posts, want %d", len(all), MaxFirst)
	}
	authors := map[string]bool{}
	for _, p := range all {
		if len(p.Tags) != 3 {
			t.Errorf("post %s has %d tags, want 3", p.ID, len(p.Tags))
		}
		if s.Post(p.ID) != p {
			t.Errorf("Post(%q) is not the post listed", p.ID)
		}
		authors[s.User(p.AuthorID).Name] = true
	}
	if len(authors) != 5 {
		t.Errorf("%d authors, want 5", len(authors))
	}
	if got := s.Post("7"); got == nil || got.Title != "Post 7: notes on auth" {
		t.Errorf("Post(7) = %+v", got)
	}
	if s.Post("51") != nil || s.User("6") != nil {
		t.Error("unknown ids found")
	}
}

func TestPostsClamp(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ n, want int }{{-1, 0}, {0, 0}, {1, 1}, {20, 20}, {50, 50}, {51, 50}} {
		got := s.Posts(tt.n)
		if len(got) != tt.want {
			t.Errorf("Posts(%d): %d posts, want %d", tt.n, len(got), tt.want)
		}
		if len(got) > 0 && got[0].ID != "1" {
			t.Errorf("Posts(%d) starts at id %s, want 1", tt.n, got[0].ID)
		}
	}
}

func TestRequests(t *testing.T) {
	reqs, err := Requests()
	if err != nil {
		t.Fatal(err)
	}
	if len(reqs) != 2 || reqs[0].Name != "A" || reqs[1].Name != "B" {
		t.Fatalf("requests %+v, want A and B", reqs)
	}
	a, b := reqs[0], reqs[1]
	if want := `query Feed($n: Int) { posts(first: $n) { id title tags createdAt author { id name } } }`; a.Query != want {
		t.Errorf("A query %q, want %q", a.Query, want)
	}
	if want := `{ post(id: "7") { id title author { name } } }`; b.Query != want {
		t.Errorf("B query %q, want %q", b.Query, want)
	}
	if got, want := a.Variables(false), map[string]any{"n": float64(20)}; !reflect.DeepEqual(got, want) {
		t.Errorf("A variables %#v, want %#v", got, want)
	}
	if got, want := a.Variables(true), map[string]any{"n": json.Number("20")}; !reflect.DeepEqual(got, want) {
		t.Errorf("A variables with UseNumber %#v, want %#v", got, want)
	}
	if got := b.Variables(false); got != nil {
		t.Errorf("B variables %#v, want nil", got)
	}
	for _, r := range reqs {
		if !json.Valid(r.Expected) || !json.Valid(r.Body) {
			t.Errorf("%s: body or expected response is not JSON", r.Name)
		}
	}
	if len(a.Expected) != 3277 || len(b.Expected) != 92 {
		t.Errorf("expected responses of %d and %d bytes, want 3277 and 92", len(a.Expected), len(b.Expected))
	}
}
