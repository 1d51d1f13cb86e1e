// Package storetest is the conformance suite for implementations of
// [articles.Store] and [auth.UserStore], in the manner of
// testing/fstest.TestFS and testing/slogtest.Run: one function that every
// implementation's tests call.
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) storetest.Store {
//			s, err := mystore.Open(filepath.Join(t.TempDir(), "test.db"))
//			if err != nil {
//				t.Fatal(err)
//			}
//			t.Cleanup(func() { s.Close() })
//			if err := s.Migrate(context.Background()); err != nil {
//				t.Fatal(err)
//			}
//			return s
//		})
//	}
//
// # What Run checks
//
//   - users: ids, password hashes, a taken e-mail address
//     ([auth.ErrEmailTaken]), unknown addresses (errcode.ErrNotFound
//     and auth.ErrUserNotFound), deletion, and that ids of deleted users
//     are never handed out again;
//   - creating: every field round-trips, Unicode and 200-character titles
//     included; timestamps come back in UTC truncated to microseconds;
//     the zero CreatedAt means now; a missing user is
//     [articles.ErrUnknownUser] and nothing is written;
//   - reading: drafts and missing ids are not found; lists hold published
//     articles only, newest first with ties broken by id, at any limit and
//     offset, with their authors, and an empty page past the end; a page
//     past its [articles.Page.MaxBytes] stops the list, which returns
//     [articles.ErrPageTooLarge] wrapped, and the store serves the next
//     list; and, while
//     writers add and delete published articles, every page agrees with
//     its total (a page at offset o with limit l of total t holds
//     min(l, max(t-o, 0)) articles, newest first): page and total are one
//     snapshot;
//   - deleting: the author deletes drafts and published articles alike;
//     another user gets [articles.ErrNotAuthor] for either; a deleted
//     user gets
//     [articles.ErrUnknownUser]; deleting a user deletes their articles;
//   - concurrency: 100 creates from 10 goroutines all succeed for the right
//     users, with distinct ids, and the total grows by exactly 100;
//   - cost: when the store implements [QueryCounter], a list costs at most
//     [MaxListQueries] statements for limits 1, 15 and 100 over more than
//     100 published articles by several authors;
//   - migrations: when the store implements [Migrator], migrating again
//     changes nothing.
//
// Each check runs as a subtest on a store of its own, so a failure names
// the behaviour that broke.
//
// [RunListFrom] runs the check of keyset pages alone, for a store that
// cannot pass the rest, such as articles over a service's own table of
// users: its CreateUser only has to add an author with the name given.
package storetest
