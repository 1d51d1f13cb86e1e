package auth

import (
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
)

func TestClientAddress(t *testing.T) {
	proxies, err := trustedPrefixes([]netip.Prefix{
		netip.MustParsePrefix("10.0.0.0/8"),
		netip.MustParsePrefix("2001:db8:1::/48"),
		netip.MustParsePrefix("::ffff:192.0.2.0/120"), // 192.0.2.0/24
	})
	if err != nil {
		t.Fatalf("trustedPrefixes: %v", err)
	}
	for _, tt := range []struct {
		name    string
		remote  string
		xff     []string // header lines; nil: no header
		trusted []netip.Prefix
		want    string
	}{
		{name: "no proxies configured", remote: "10.0.0.1:4711", xff: []string{"198.51.100.9"}, want: "10.0.0.1"},
		{name: "untrusted peer", remote: "203.0.113.7:4711", xff: []string{"198.51.100.9"}, trusted: proxies, want: "203.0.113.7"},
		{name: "untrusted peer forging a trusted hop", remote: "203.0.113.7:4711", xff: []string{"198.51.100.9, 10.0.0.2"}, trusted: proxies, want: "203.0.113.7"},
		{name: "trusted peer without the header", remote: "10.0.0.1:4711", trusted: proxies, want: "10.0.0.1"},
		{name: "trusted peer with an empty header", remote: "10.0.0.1:4711", xff: []string{""}, trusted: proxies, want: "10.0.0.1"},
		{name: "one hop", remote: "10.0.0.1:4711", xff: []string{"198.51.100.9"}, trusted: proxies, want: "198.51.100.9"},
		{name: "two proxies", remote: "10.0.0.1:4711", xff: []string{"198.51.100.9, 10.0.0.2"}, trusted: proxies, want: "198.51.100.9"},
		{name: "spoofed left-most entries", remote: "10.0.0.1:4711", xff: []string{"1.2.3.4, 10.9.9.9, 198.51.100.9, 10.0.0.2"}, trusted: proxies, want: "198.51.100.9"},
		{name: "spoofed trusted left-most entry", remote: "10.0.0.1:4711", xff: []string{"10.0.0.9, 198.51.100.9"}, trusted: proxies, want: "198.51.100.9"},
		{name: "several lines", remote: "10.0.0.1:4711", xff: []string{"1.2.3.4, 198.51.100.9", "10.0.0.3"}, trusted: proxies, want: "198.51.100.9"},
		{name: "several lines, the client's alone", remote: "10.0.0.1:4711", xff: []string{"1.2.3.4", "198.51.100.9", "10.0.0.3, 10.0.0.4"}, trusted: proxies, want: "198.51.100.9"},
		{name: "spaces and tabs", remote: "10.0.0.1:4711", xff: []string{" 1.2.3.4 ,\t198.51.100.9\t,  10.0.0.2  "}, trusted: proxies, want: "198.51.100.9"},
		{name: "no spaces", remote: "10.0.0.1:4711", xff: []string{"1.2.3.4,198.51.100.9,10.0.0.2"}, trusted: proxies, want: "198.51.100.9"},
		{name: "every hop trusted", remote: "10.0.0.1:4711", xff: []string{"10.0.0.5, 192.0.2.1, 10.0.0.2"}, trusted: proxies, want: "10.0.0.5"},
		{name: "garbage behind the proxies", remote: "10.0.0.1:4711", xff: []string{"198.51.100.9, garbage, 10.0.0.2"}, trusted: proxies, want: "10.0.0.2"},
		{name: "garbage right-most", remote: "10.0.0.1:4711", xff: []string{"198.51.100.9, garbage"}, trusted: proxies, want: "10.0.0.1"},
		{name: "unknown", remote: "10.0.0.1:4711", xff: []string{"unknown"}, trusted: proxies, want: "10.0.0.1"},
		{name: "host name", remote: "10.0.0.1:4711", xff: []string{"client.example"}, trusted: proxies, want: "10.0.0.1"},
		{name: "empty entry", remote: "10.0.0.1:4711", xff: []string{"198.51.100.9,,10.0.0.2"}, trusted: proxies, want: "10.0.0.2"},
		{name: "trailing comma", remote: "10.0.0.1:4711", xff: []string{"198.51.100.9,"}, trusted: proxies, want: "10.0.0.1"},
		{name: "garbage left of the client", remote: "10.0.0.1:4711", xff: []string{"<script>, 198.51.100.9"}, trusted: proxies, want: "198.51.100.9"},
		{name: "a prefix", remote: "10.0.0.1:4711", xff: []string{"198.51.100.0/24"}, trusted: proxies, want: "10.0.0.1"},
		{name: "entry with a port", remote: "10.0.0.1:4711", xff: []string{"198.51.100.9:5555"}, trusted: proxies, want: "198.51.100.9"},
		{name: "IPv6 entry with a port", remote: "10.0.0.1:4711", xff: []string{"[2001:db8:ffff::7]:5555"}, trusted: proxies, want: "2001:db8:ffff::7"},
		{name: "IPv6 entry with brackets but no port", remote: "10.0.0.1:4711", xff: []string{"[2001:db8:ffff::7]"}, trusted: proxies, want: "10.0.0.1"},
		{name: "untrusted IPv6 peer", remote: "[2001:db8:2::1]:443", xff: []string{"198.51.100.9"}, trusted: proxies, want: "2001:db8:2::1"},
		{name: "trusted IPv6 peer", remote: "[2001:db8:1::5]:443", xff: []string{"2001:db8:ffff::7, 2001:db8:1::6"}, trusted: proxies, want: "2001:db8:ffff::7"},
		{name: "IPv6 client behind an IPv4 proxy", remote: "10.0.0.1:4711", xff: []string{"2001:DB8:FFFF:0:0:0:0:7"}, trusted: proxies, want: "2001:db8:ffff::7"},
		{name: "IPv4-mapped peer", remote: "[::ffff:10.0.0.1]:4711", xff: []string{"198.51.100.9"}, trusted: proxies, want: "198.51.100.9"},
		{name: "IPv4-mapped untrusted peer", remote: "[::ffff:203.0.113.7]:4711", xff: []string{"198.51.100.9"}, trusted: proxies, want: "203.0.113.7"},
		{name: "IPv4-mapped client", remote: "10.0.0.1:4711", xff: []string{"::ffff:198.51.100.9"}, trusted: proxies, want: "198.51.100.9"},
		{name: "IPv4-mapped trusted hop", remote: "10.0.0.1:4711", xff: []string{"198.51.100.9, ::ffff:10.0.0.2"}, trusted: proxies, want: "198.51.100.9"},
		{name: "hop in a mapped prefix", remote: "192.0.2.10:4711", xff: []string{"198.51.100.9, 192.0.2.11"}, trusted: proxies, want: "198.51.100.9"},
		{name: "zone", remote: "[fe80::1%eth0]:4711", trusted: proxies, want: "fe80::1"},
		{name: "zone in an entry", remote: "10.0.0.1:4711", xff: []string{"fe80::7%eth1"}, trusted: proxies, want: "fe80::7"},
		{name: "peer without a port", remote: "203.0.113.7", trusted: proxies, want: "203.0.113.7"},
		{name: "peer not an address", remote: "@", xff: []string{"198.51.100.9"}, trusted: proxies, want: "@"},
		{name: "no peer", remote: "", xff: []string{"198.51.100.9"}, trusted: proxies, want: ""},
		{name: "many hops", remote: "10.0.0.1:4711", xff: []string{"198.51.100.9, " + strings.Repeat("10.0.0.2, ", 1000) + "10.0.0.3"}, trusted: proxies, want: "198.51.100.9"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/", nil)
			r.RemoteAddr = tt.remote
			for _, line := range tt.xff {
				r.Header.Add("X-Forwarded-For", line)
			}
			if got := clientAddress(r, tt.trusted); got != tt.want {
				t.Errorf("clientAddress(%q, X-Forwarded-For %q) = %q; want %q", tt.remote, tt.xff, got, tt.want)
			}
		})
	}
}

func TestTrustedPrefixes(t *testing.T) {
	got, err := trustedPrefixes([]netip.Prefix{
		netip.MustParsePrefix("10.1.2.3/8"),
		netip.MustParsePrefix("::ffff:192.0.2.0/120"),
		netip.MustParsePrefix("::ffff:0:0/96"),
		netip.MustParsePrefix("::/64"),
		netip.MustParsePrefix("2001:db8::1/128"),
	})
	if err != nil {
		t.Fatalf("trustedPrefixes: %v", err)
	}
	want := "[10.0.0.0/8 192.0.2.0/24 0.0.0.0/0 ::/64 2001:db8::1/128]"
	if s := fmtPrefixes(got); s != want {
		t.Errorf("trustedPrefixes = %s; want %s", s, want)
	}
	if _, err := trustedPrefixes([]netip.Prefix{{}}); err == nil || err.Error() != "auth: LoginConfig.TrustedProxies[0] is not a valid prefix" {
		t.Errorf("trustedPrefixes(zero prefix) error = %v", err)
	}
}

func fmtPrefixes(ps []netip.Prefix) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return "[" + strings.Join(s, " ") + "]"
}

// FuzzClientAddress checks clientAddress on any X-Forwarded-For behind a
// trusted proxy: it never panics, answers an IP address, and that address
// is the peer's or one the header holds; behind an untrusted peer it is
// always the peer's.
func FuzzClientAddress(f *testing.F) {
	for _, seed := range []string{
		"", "198.51.100.9", "198.51.100.9, 10.0.0.2", "unknown, 10.0.0.3", "[2001:db8::1]:80,10.1.1.1",
		"::ffff:10.0.0.1", "fe80::1%eth0", ",,,", "1.2.3.4:99999", strings.Repeat("10.0.0.1,", 50),
	} {
		f.Add(seed, true)
	}
	proxies, err := trustedPrefixes([]netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("2001:db8::/32")})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, xff string, trustedPeer bool) {
		r := httptest.NewRequest("POST", "/", nil)
		r.RemoteAddr = "203.0.113.5:4711"
		if trustedPeer {
			r.RemoteAddr = "10.9.9.9:4711"
		}
		r.Header.Set("X-Forwarded-For", xff)
		got := clientAddress(r, proxies)
		a, err := netip.ParseAddr(got)
		if err != nil {
			t.Fatalf("clientAddress = %q, not an IP address", got)
		}
		peer := strings.TrimSuffix(r.RemoteAddr, ":4711")
		if !trustedPeer {
			if got != peer {
				t.Fatalf("untrusted peer: clientAddress = %q; want %q", got, peer)
			}
			return
		}
		if got == peer {
			return
		}
		for entry := range strings.SplitSeq(xff, ",") {
			if e, ok := forwardedAddr(strings.TrimSpace(entry)); ok && e == a {
				return
			}
		}
		t.Fatalf("clientAddress = %q: neither the peer nor an entry of %q", got, xff)
	})
}

func TestClientBlock(t *testing.T) {
	for _, tt := range []struct{ addr, want string }{
		{"198.51.100.7", "198.51.100.7"},
		{"::ffff:198.51.100.7", "198.51.100.7"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		{"2001:db8:1:2::1", "2001:db8:1:2::/64"},
		{"fe80::1%eth0", "fe80::/64"},
		{"::1", "::/64"},
		{"@", "@"}, // a Unix socket's peer
		{"/run/app.sock", "/run/app.sock"},
		{"", ""},
	} {
		if got := clientBlock(tt.addr); got != tt.want {
			t.Errorf("clientBlock(%q) = %q; want %q", tt.addr, got, tt.want)
		}
	}
}
