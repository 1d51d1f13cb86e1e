// Package respbudget lends bytes of a shared memory budget to the answers
// a server builds and writes, so that the answers held at once stay within
// a bound, small answers never wait behind large ones, and one client
// cannot take more than a small part of the budget.
//
// An answer takes a [Share] before it is built, grows it as it outgrows
// it, shrinks it to the bytes it really holds once it is built, and
// releases it once it is written:
//
//	share, err := budget.First(ctx, respbudget.ClientOf(r)) // Config.FirstShare
//	if err != nil { /* ErrBusy: 503 with Retry-After, MessageBusy */ }
//	defer share.Release()                // once the answer is written
//	err = share.Grow(ctx, bound)         // outgrown: its bound, at once
//	err = share.TryGrow(bound)           // the same, without waiting
//	share.Shrink(int64(cap(answer)))     // built: hold what it holds
//
// # Lanes
//
// The budget is cut in two lanes. A quarter of it (at least one first
// share) is kept for first shares: every answer starts there, with
// Config.FirstShare bytes, and nothing else may take that room, so that
// however many large answers are held (their clients may never read them)
// a small answer finds room. The rest is for growth: a share that outgrows
// its first share moves to the large lane whole, and gives its first share
// back.
//
// # Clients
//
// Shares are held by a [Client], the address a request came from (an IPv6
// address counts as its /64). In the first lane one client holds at most an
// eighth of the lane (at least one first share); in the large lane, by
// growth, at most Config.MaxShare: one large answer at a time, since
// answers that outgrow their first share ask for the whole MaxShare at
// once ([Share.Grow], [Share.TryGrow]) and shrink once built. A client
// past its part waits for its own shares, never in front of others: a
// waiter whose client is full is passed over.
//
// [Share.Overdraw] passes the client's part: it is for answers that may
// neither wait nor fail once built (a mutation's), whose first share comes
// from [Budget.FirstToOverdraw]. That first share waits, besides, while
// its client holds its part of the large lane or more; so a client
// overdraws at most what the answers it has under way at once, at most
// its part of the first lane, hold past that part.
//
// The zero Client, every request whose address cannot be read (a Unix
// socket's listener gives "" or "@"), has no part of its own: only the
// lanes bound it, as they would bound those requests if each were a
// client of its own.
//
// Behind a reverse proxy every request comes from the proxy's address, so
// every client would count as one: the service's proxy middleware (chi's
// middleware.RealIP, gorilla's handlers.ProxyHeaders) must rewrite
// RemoteAddr from the forwarding headers it trusts, before the budget sees
// the request.
//
// # Waiting
//
// A share that cannot be granted at once waits in its lane's queue, first
// come, first served, while its context lasts, and then is refused with
// [ErrBusy]; the waits of one share (its first share, then its growth)
// last Config.Wait all together. Only two kinds of request ever wait: one
// that holds nothing yet ([Budget.First], [Budget.FirstToOverdraw]), and
// one whose first share moves to the large lane ([Share.Grow] on a first
// share), which holds that first share while it waits. A share of the
// large lane never waits: its growth is granted at once or refused, and
// [Share.Overdraw] is granted at once. So the large lane's waiters wait on
// shares that wait for nothing, and the first lane's waiters, which hold
// nothing, on shares that wait at most for the large lane (a first share
// to overdraw waits on its client's shares of the large lane, which wait
// for nothing): every chain of waits ends at a share that is being built
// or written, and the budget cannot deadlock.
//
// [Share.TryGrow] never waits, whatever the lane: it is for an answer that
// grows while it holds what other requests need, such as a database
// connection whose rows it reads, and must not wait for room meanwhile.
//
// A Budget is safe for concurrent use; a Share belongs to one goroutine at
// a time.
package respbudget
