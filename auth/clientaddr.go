package auth

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// trustedPrefixes checks the prefixes of [LoginConfig.TrustedProxies] and
// returns them masked, with IPv4-mapped IPv6 prefixes (::ffff:10.0.0.0/104)
// as the IPv4 ones they stand for, since addresses are compared unmapped.
func trustedPrefixes(prefixes []netip.Prefix) ([]netip.Prefix, error) {
	out := make([]netip.Prefix, 0, len(prefixes))
	for i, p := range prefixes {
		if !p.IsValid() {
			return nil, fmt.Errorf("auth: LoginConfig.TrustedProxies[%d] is not a valid prefix", i)
		}
		if a := p.Addr(); a.Is4In6() && p.Bits() >= 96 {
			p = netip.PrefixFrom(a.Unmap(), p.Bits()-96)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// clientAddress returns the address of the client that sent r, with no
// port: the connection's peer, unless that peer is within trusted (a
// proxy). Then X-Forwarded-For (all its lines, each a comma-separated list
// the proxies appended to) is read from right to left, past the addresses
// within trusted; the first one outside them is the client. An entry that
// is not an address stops the walk at the last trusted hop, since every
// entry left of it may be the client's own invention; when every hop is
// trusted, the leftmost is the client. IPv4-mapped IPv6 addresses count as
// IPv4. A peer that is not an IP address (a Unix socket) is returned as
// it is.
func clientAddress(r *http.Request, trusted []netip.Prefix) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	hop, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	hop = hop.Unmap().WithZone("")
	if !within(hop, trusted) {
		return hop.String()
	}
	list := strings.Join(r.Header.Values("X-Forwarded-For"), ",")
	for list != "" {
		var entry string
		if i := strings.LastIndexByte(list, ','); i >= 0 {
			list, entry = list[:i], list[i+1:]
		} else {
			list, entry = "", list
		}
		a, ok := forwardedAddr(strings.TrimSpace(entry))
		if !ok {
			break
		}
		hop = a
		if !within(hop, trusted) {
			break
		}
	}
	return hop.String()
}

// forwardedAddr parses one X-Forwarded-For entry: an IP address, or one
// with a port as some proxies write it (192.0.2.1:4711, [2001:db8::1]:4711).
func forwardedAddr(s string) (netip.Addr, bool) {
	a, err := netip.ParseAddr(s)
	if err != nil {
		ap, err := netip.ParseAddrPort(s)
		if err != nil {
			return netip.Addr{}, false
		}
		a = ap.Addr()
	}
	return a.Unmap().WithZone(""), true
}

// within reports whether a is in one of prefixes.
func within(a netip.Addr, prefixes []netip.Prefix) bool {
	for _, p := range prefixes {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// clientBlock returns the part of a client address that the throttle
// counts: an IPv6 address as its /64, the block a single subscriber or
// host is given (RFC 6177), within which it can take any address it
// likes; an IPv4 address, or a peer that is not an IP address, as it is.
func clientBlock(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	if a = a.Unmap(); a.Is4() {
		return a.String()
	}
	return netip.PrefixFrom(a.WithZone(""), 64).Masked().String()
}
