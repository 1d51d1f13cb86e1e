package main

import (
	"math/rand/v2"
	"time"
)

// article is an article a client wrote, as it wrote it.
type article struct {
	id        int64
	title     string
	published bool
}

// post is a post a client wrote.
type post struct {
	id, title string
}

// ledger is what one client wrote and deleted, as the server acknowledged
// it. Only its client touches it during the load.
type ledger struct {
	createdArticles []article // every 201, in order
	liveArticles    []article // created and not deleted
	deletedArticles []article // answered 204
	createdPosts    []post
	livePosts       []post
	deletedPosts    []post

	// Writes whose outcome is unknown (a transport error, a 5xx, an answer
	// that does not describe the write): they are left out of the checks.
	uncertainArticles  int
	uncertainPublished int // of uncertainArticles, those of published articles
	uncertainPosts     int
}

func (l *ledger) addArticle(a article) {
	l.createdArticles = append(l.createdArticles, a)
	l.liveArticles = append(l.liveArticles, a)
}

func (l *ledger) addPost(p post) {
	l.createdPosts = append(l.createdPosts, p)
	l.livePosts = append(l.livePosts, p)
}

// takeArticle removes a live article chosen at random and returns it.
func (l *ledger) takeArticle(rng *rand.Rand) (article, bool) {
	return take(&l.liveArticles, rng)
}

// takePost removes a live post chosen at random and returns it.
func (l *ledger) takePost(rng *rand.Rand) (post, bool) {
	return take(&l.livePosts, rng)
}

func take[T any](items *[]T, rng *rand.Rand) (T, bool) {
	var zero T
	n := len(*items)
	if n == 0 {
		return zero, false
	}
	i := rng.IntN(n)
	item := (*items)[i]
	(*items)[i] = (*items)[n-1]
	*items = (*items)[:n-1]
	return item, true
}

// uncertain counts an article write whose outcome is unknown.
func (l *ledger) uncertain(published bool) {
	l.uncertainArticles++
	if published {
		l.uncertainPublished++
	}
}

// maxSamples caps the unexpected answers kept for the report.
const maxSamples = 10

// opStats are the outcomes of one operation's requests.
type opStats struct {
	op         *operation
	statuses   map[int]int // 0 counts transport errors
	latencies  []time.Duration
	unexpected int
	internal   int // 5xx statuses and GraphQL INTERNAL_SERVER_ERRORs
}

// recorder collects the outcomes of a client's requests.
type recorder struct {
	ops         map[string]*opStats
	unexpecteds int
	samples     []string // the first few unexpected answers
	pages       pageTally
}

func newRecorder() *recorder { return &recorder{ops: map[string]*opStats{}} }

func (r *recorder) stats(o *operation) *opStats {
	s := r.ops[o.name]
	if s == nil {
		s = &opStats{op: o, statuses: map[int]int{}}
		r.ops[o.name] = s
	}
	return s
}

// record counts a's status and latency under o.
func (r *recorder) record(o *operation, a answer) {
	s := r.stats(o)
	s.statuses[a.status]++
	s.latencies = append(s.latencies, a.took)
	if a.status >= 500 {
		s.internal++
	}
}

// internal counts a GraphQL INTERNAL_SERVER_ERROR under o.
func (r *recorder) internal(o *operation) { r.stats(o).internal++ }

// unexpected counts an answer o should not have got.
func (r *recorder) unexpected(o *operation, a answer, why string) {
	r.stats(o).unexpected++
	r.unexpecteds++
	if len(r.samples) < maxSamples {
		r.samples = append(r.samples, o.name+": "+why+", got "+a.String())
	}
}

// merge adds the outcomes of other to r.
func (r *recorder) merge(other *recorder) {
	for _, s := range other.ops {
		mine := r.stats(s.op)
		for status, n := range s.statuses {
			mine.statuses[status] += n
		}
		mine.latencies = append(mine.latencies, s.latencies...)
		mine.unexpected += s.unexpected
		mine.internal += s.internal
	}
	r.unexpecteds += other.unexpecteds
	r.pages.add(&other.pages)
	for _, s := range other.samples {
		if len(r.samples) < maxSamples {
			r.samples = append(r.samples, s)
		}
	}
}
