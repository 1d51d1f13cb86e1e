package graphql

import (
	"container/list"
	"hash/maphash"
	"math"
	"math/bits"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// document is the outcome of scanning, parsing, limit checks and validation
// of one query text: either a validated, read-only document or the request
// errors to answer with.
type document struct {
	query  string
	doc    *ast.QueryDocument
	errs   gqlerror.List
	fault  error // a server fault met while checking; such documents are not cached
	weight int   // estimated memory, see documentWeight; 0 means len(query)

	mu  sync.Mutex
	ops []namedOperation // at most maxOperations, searched in order

	// parser parsed doc, when no cache holds d: the request that made d
	// gives its memory back once answered (Prepared.Release).
	parser *Parser
}

// namedOperation is an operation prepared from a document, under the name
// the request asked for ("" for the only one).
type namedOperation struct {
	name string
	op   *operation
}

// Estimated memory of a cached document beyond its text, from measuring
// 1,000 cached 500-field documents (about 150 bytes per token and node).
const (
	bytesPerToken = 160 // parsed and validated document
	bytesPerNode  = 160 // execution plans
	bytesPerError = 256 // a request error answered from the cache
)

// documentWeight estimates the memory a cached document takes; nodes are
// those of all its operations (limits.DocStats.Nodes), whose plans it may
// come to hold.
func documentWeight(queryLen, tokens, nodes, errs int) int {
	return queryLen + tokens*bytesPerToken + nodes*bytesPerNode + errs*bytesPerError
}

// size is the weight of d in the cache.
func (d *document) size() int {
	if d.weight > 0 {
		return d.weight
	}
	return len(d.query)
}

// maxOperations bounds the prepared operations a document keeps.
const maxOperations = 16

// operation is an operation prepared from a cached document, or the
// request errors of its selection.
type operation struct {
	op   *Operation
	errs gqlerror.List
}

// operation returns the operation called name of d, prepared now or
// earlier by p.
func (d *document) operation(p *Preparer, name string) *operation {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, n := range d.ops {
		if n.name == name {
			return n.op
		}
	}
	op, errs := p.s.Prepare(d.doc, name)
	o := &operation{op: op, errs: p.requestErrors(errs)}
	if len(d.ops) < maxOperations { // a document has few operations; bound it anyway
		d.ops = append(d.ops, namedOperation{name: name, op: o})
	}
	return o
}

// cache is a bounded LRU of documents keyed by query text, safe for
// concurrent use. Documents are validated before they enter it and only
// read afterwards.
//
// A document is admitted on second sight: it is cached from the second
// time it is offered within the recent window, not the first. A
// doorkeeper, a direct-mapped table of the 64-bit hashes of texts
// recently offered once, remembers the first offer; the second finds the
// hash in its slot, clears it and caches the document. So a text sent only
// once (a client that inlines values or builds every query anew) neither
// evicts a useful document nor stays in memory after its answer: it costs
// one slot of the table, which the next text hashed to that slot takes
// over (the forgotten text then needs a third sight). The hashes are
// seeded per cache, so that no one can craft texts that collide.
type cache struct {
	mu       sync.Mutex
	maxItems int
	maxBytes int
	bytes    int
	ll       *list.List
	items    map[string]*list.Element

	seed maphash.Seed // set by newCache, then only read
	seen []uint64     // the doorkeeper: hashes of texts offered once; 0 is empty
}

// maxSeen bounds the slots of the doorkeeper (8 bytes each).
const maxSeen = 1 << 16

func newCache(items, bytes int) *cache {
	if items < 0 {
		return nil
	}
	if items == 0 {
		items = DefaultCacheSize
	}
	switch {
	case bytes == 0:
		bytes = DefaultCacheBytes
	case bytes < 0: // no bound on the bytes, only on the count
		bytes = math.MaxInt
	}
	// The next power of two of at least 4 slots per document, up to maxSeen.
	slots := 1 << bits.Len(uint(4*min(items, maxSeen/4)-1))
	return &cache{maxItems: items, maxBytes: bytes, ll: list.New(), items: map[string]*list.Element{},
		seed: maphash.MakeSeed(), seen: make([]uint64, slots)}
}

// hash returns the doorkeeper's hash of query, never 0, and its slot.
func (c *cache) hash(query string) (h uint64, slot int) {
	h = maphash.String(c.seed, query)
	if h == 0 {
		h = 1 // 0 marks an empty slot
	}
	return h, int(h & uint64(len(c.seen)-1))
}

func (c *cache) get(query string) *document {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[query]; ok {
		c.ll.MoveToFront(el)
		return el.Value.(*document)
	}
	return nil
}

// offer is a text about to be offered to the cache: its doorkeeper hash
// and slot, and whether the slot held the hash when looked at (the text
// was seen before, so that add will most likely cache its document).
type offer struct {
	h     uint64
	slot  int
	again bool
}

// offer hashes query for add and looks at its slot in the doorkeeper; a
// nil cache admits nothing.
func (c *cache) offer(query string) offer {
	if c == nil {
		return offer{}
	}
	h, slot := c.hash(query)
	c.mu.Lock()
	again := c.seen[slot] == h
	c.mu.Unlock()
	return offer{h: h, slot: slot, again: again}
}

// add offers d, whose text was hashed into o, to the cache (see [cache])
// and reports whether it cached it: d is cached if the slot of its text in
// the doorkeeper holds the text's hash (it was offered before, and no
// other text took the slot since); else the hash is written there and d is
// dropped. A document larger than the byte bound is dropped, and one whose
// text is cached already leaves the cached one in place.
func (c *cache) add(d *document, o offer) bool {
	if c == nil || d.size() > c.maxBytes {
		return false
	}
	h, slot := o.h, o.slot
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[d.query]; ok {
		return false
	}
	if c.seen[slot] != h { // first sight, or the text was forgotten
		c.seen[slot] = h
		return false
	}
	c.seen[slot] = 0
	c.items[d.query] = c.ll.PushFront(d)
	c.bytes += d.size()
	for c.ll.Len() > c.maxItems || c.bytes > c.maxBytes {
		el := c.ll.Back()
		old := el.Value.(*document)
		c.ll.Remove(el)
		delete(c.items, old.query)
		c.bytes -= old.size()
	}
	return true
}

func (c *cache) len() int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ll.Len()
}

// stats returns the number of documents c holds and their weight.
func (c *cache) stats() (docs, bytes int) {
	if c == nil {
		return 0, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ll.Len(), c.bytes
}
