package respbudget

import (
	"encoding/binary"
	"net/http"
	"net/netip"
	"strings"
)

// Client is who holds shares: the address a request came from, an IPv6
// address counting as its /64 (one subscriber's usual allocation), an
// IPv4-mapped IPv6 address as the IPv4 address. The zero Client stands for
// every request whose address cannot be read.
type Client struct {
	v4 string // an IPv4 address in dotted decimal
	v6 uint64 // the /64 of an IPv6 address, when v4 is ""
	is bool   // the address could be read
}

// ClientOf returns the client of r, from r.RemoteAddr: behind a reverse
// proxy, RemoteAddr must have been rewritten from the forwarding headers
// (see the package documentation).
func ClientOf(r *http.Request) Client { return ClientAt(r.RemoteAddr) }

// ClientAt returns the client at addr, "host:port" or a bare host.
//
// An IPv4 address with a port, what a server's RemoteAddr almost always
// holds, is taken as it is written, without parsing: net/http writes it
// from the socket's address, in the one dotted decimal form.
func ClientAt(addr string) Client {
	if i := strings.LastIndexByte(addr, ':'); i > 0 && strings.IndexByte(addr[:i], ':') < 0 && addr[0] != '[' {
		return Client{v4: addr[:i], is: true}
	}
	return clientAt(addr)
}

// clientAt is ClientAt by net/netip alone.
func clientAt(addr string) Client {
	var a netip.Addr
	if ap, err := netip.ParseAddrPort(addr); err == nil {
		a = ap.Addr()
	} else if a, err = netip.ParseAddr(addr); err != nil {
		return Client{}
	}
	a = a.Unmap()
	if a.Is4() {
		return Client{v4: a.String(), is: true}
	}
	b := a.As16()
	return Client{v6: binary.BigEndian.Uint64(b[:8]), is: true}
}

// String returns the client's address, an IPv6 one as its /64's first
// address; "" for the zero Client.
func (c Client) String() string {
	switch {
	case !c.is:
		return ""
	case c.v4 != "":
		return c.v4
	}
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], c.v6)
	return netip.AddrFrom16(b).String()
}
