package respbudget_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"time"

	"github.com/gqlkit/gqlkit/internal/respbudget"
)

// An answer takes a first share, grows it when it outgrows it, shrinks it
// to what it holds once built, and releases it once written. A client
// holds one large share at a time: its second large answer waits, and is
// refused when the wait is over.
func Example() {
	budget, err := respbudget.New(respbudget.Config{Size: 64 << 20, FirstShare: 256 << 10, MaxShare: 16 << 20, Wait: 10 * time.Millisecond})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	r := httptest.NewRequest("GET", "/api/articles", nil) // RemoteAddr 192.0.2.1:1234
	client := respbudget.ClientOf(r)

	share, err := budget.First(ctx, client)
	if err != nil {
		panic(err) // respbudget.ErrBusy: answer 503 with Retry-After
	}
	fmt.Println("first share:", share.Size())
	if err := share.Grow(ctx, 16<<20); err != nil {
		panic(err)
	}
	fmt.Println("grown:", share.Size())
	share.Shrink(3 << 20) // the answer, built, holds 3 MiB
	fmt.Println("while written:", share.Size())

	second, _ := budget.First(ctx, client)
	err = second.Grow(ctx, 16<<20)
	fmt.Println("the client's second large answer:", errors.Is(err, respbudget.ErrBusy))
	second.Release()

	share.Release() // written
	fmt.Println("released:", share.Size())
	// Output:
	// first share: 262144
	// grown: 16777216
	// while written: 3145728
	// the client's second large answer: true
	// released: 0
}
