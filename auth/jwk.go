package auth

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
)

// maxJWKSKeys bounds the members of a key set's "keys" array, usable or
// not; a document with more is refused as a whole.
const maxJWKSKeys = 1000

// parseJWKS reads a JWK Set (RFC 7517 §5) from an identity provider: an
// object whose "keys" member is an array of JWKs. It returns the keys
// that can verify signatures, by kid, each pinned to its algorithm:
//
//   - kty "RSA" with n and e, [MinRSABits] to [MaxRSABits] bits: RS256;
//   - kty "EC", crv "P-256", x and y of a point on the curve: ES256;
//   - kty "OKP", crv "Ed25519", x: EdDSA.
//
// A key whose alg names another algorithm than its type's, whose use is
// not "sig", whose key_ops (when present) lack "verify", of another type
// ("oct" secrets included: a public document never supplies an HMAC key)
// or curve, or whose members are not well-formed is skipped; so is every
// key whose kid another usable key has too, as a kid must name one key.
// The document is refused when it is not a JSON object with a "keys"
// array, names a member twice in an object, has more than maxJWKSKeys
// keys, or holds no usable key; the error then says why each key was
// skipped. Untrusted input: it never panics, and its work is linear in
// the size of data.
func parseJWKS(data []byte) (keySet, error) {
	if !json.Valid(data) {
		return nil, errors.New("the JWK set is not valid JSON")
	}
	var keys []byte
	err := walkObject(data, func(name, value []byte) error {
		if string(name) == "keys" {
			keys = value
		}
		return nil
	})
	switch {
	case err != nil:
		return nil, fmt.Errorf("the JWK set: %w", err)
	case keys == nil:
		return nil, errors.New(`the JWK set has no "keys" member`)
	}
	elems, err := arrayElements(keys, maxJWKSKeys)
	if err != nil {
		return nil, fmt.Errorf(`the JWK set's "keys": %w`, err)
	}
	set := make(keySet, len(elems))
	ambiguous := map[string]bool{}
	var skipped []error
	for i, raw := range elems {
		k, err := parseJWK(raw)
		if err != nil {
			skipped = append(skipped, fmt.Errorf("key %d: %w", i, err))
			continue
		}
		if _, dup := set[k.kid]; dup || ambiguous[k.kid] {
			delete(set, k.kid)
			ambiguous[k.kid] = true
			skipped = append(skipped, fmt.Errorf("key %d: kid %q names another key too", i, truncate(k.kid, 64)))
			continue
		}
		set[k.kid] = k
	}
	if len(set) == 0 {
		return nil, fmt.Errorf("the JWK set has no usable key: %w", errors.Join(skipped...))
	}
	return set, nil
}

// arrayElements returns the elements of the JSON array text, which is
// valid JSON, refusing more than limit of them.
func arrayElements(text []byte, limit int) ([][]byte, error) {
	r := jsonReader{data: text}
	if !r.consume('[') {
		return nil, errors.New("not an array")
	}
	var elems [][]byte
	if r.consume(']') {
		return elems, nil
	}
	for {
		if len(elems) == limit {
			return nil, fmt.Errorf("more than %d keys", limit)
		}
		v, err := r.value()
		if err != nil {
			return nil, err
		}
		elems = append(elems, v)
		if r.consume(']') {
			return elems, nil
		}
		if !r.consume(',') {
			return nil, errors.New("elements not separated by commas")
		}
	}
}

// jwk holds the members of a JWK that this package reads.
type jwk struct {
	kty, kid, use, alg, crv string
	n, e, x, y              string
	ops                     []string
	hasOps                  bool
}

// parseJWK reads one key of a set, or says why it cannot verify.
func parseJWK(raw []byte) (verifyKey, error) {
	var j jwk
	err := walkObject(raw, func(name, value []byte) error {
		var err error
		switch string(name) {
		case "kty":
			j.kty, err = stringClaim(value)
		case "kid":
			j.kid, err = stringClaim(value)
		case "use":
			j.use, err = stringClaim(value)
		case "alg":
			j.alg, err = stringClaim(value)
		case "crv":
			j.crv, err = stringClaim(value)
		case "n":
			j.n, err = stringClaim(value)
		case "e":
			j.e, err = stringClaim(value)
		case "x":
			j.x, err = stringClaim(value)
		case "y":
			j.y, err = stringClaim(value)
		case "key_ops":
			j.hasOps = true
			if json.Unmarshal(value, &j.ops) != nil {
				err = errors.New("not an array of strings")
			}
		default:
			return nil
		}
		if err != nil {
			return fmt.Errorf("member %s: %w", name, err)
		}
		return nil
	})
	if err != nil {
		return verifyKey{}, err
	}
	return j.key()
}

// key checks j and returns its key, pinned to its algorithm.
func (j jwk) key() (verifyKey, error) {
	if j.use != "" && j.use != "sig" {
		return verifyKey{}, fmt.Errorf("use %q is not sig", truncate(j.use, 32))
	}
	if j.hasOps && !slices.Contains(j.ops, "verify") {
		return verifyKey{}, errors.New(`key_ops lacks "verify"`)
	}
	var (
		want string
		key  any
		err  error
	)
	switch j.kty {
	case "RSA":
		want = algRS256
		key, err = j.rsa()
	case "EC":
		want = algES256
		key, err = j.ec()
	case "OKP":
		want = algEdDSA
		key, err = j.okp()
	default:
		return verifyKey{}, fmt.Errorf("kty %q is not supported (RSA, EC and OKP are)", truncate(j.kty, 32))
	}
	if j.alg != "" && j.alg != want {
		return verifyKey{}, fmt.Errorf("alg %q is not supported for kty %s (%s is)", truncate(j.alg, 32), j.kty, want)
	}
	if err != nil {
		return verifyKey{}, err
	}
	return verifyKey{kid: j.kid, alg: want, key: key}, nil
}

// rsa reads an RSA public key from n and e.
func (j jwk) rsa() (*rsa.PublicKey, error) {
	// A modulus of MaxRSABits in base64url, with room for a leading zero.
	if len(j.n) > (MaxRSABits/8+1)*4/3+4 {
		return nil, fmt.Errorf("n is longer than a %d-bit modulus", MaxRSABits)
	}
	n, err := base64URL("n", j.n)
	if err != nil {
		return nil, err
	}
	e, err := base64URL("e", j.e)
	if err != nil {
		return nil, err
	}
	e = trimZeros(e)
	if len(e) > 4 {
		return nil, errors.New("e is larger than 2^31-1")
	}
	exp := 0
	for _, b := range e {
		exp = exp<<8 | int(b)
	}
	k := &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: exp}
	if err := checkRSA(k); err != nil {
		return nil, err
	}
	return k, nil
}

// ec reads a P-256 public key from x and y.
func (j jwk) ec() (*ecdsa.PublicKey, error) {
	if j.crv != "P-256" {
		return nil, fmt.Errorf("crv %q is not supported for kty EC (P-256 is)", truncate(j.crv, 32))
	}
	x, err := base64URL("x", j.x)
	if err != nil {
		return nil, err
	}
	y, err := base64URL("y", j.y)
	if err != nil {
		return nil, err
	}
	if len(x) != 32 || len(y) != 32 {
		return nil, fmt.Errorf("x and y are %d and %d bytes; P-256 needs 32 each", len(x), len(y))
	}
	point := make([]byte, 0, 65)
	point = append(append(append(point, 4), x...), y...)
	k, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), point)
	if err != nil {
		return nil, errors.New("x and y are not a point of P-256")
	}
	return k, nil
}

// okp reads an Ed25519 public key from x.
func (j jwk) okp() (ed25519.PublicKey, error) {
	if j.crv != "Ed25519" {
		return nil, fmt.Errorf("crv %q is not supported for kty OKP (Ed25519 is)", truncate(j.crv, 32))
	}
	x, err := base64URL("x", j.x)
	if err != nil {
		return nil, err
	}
	if len(x) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("x is %d bytes; Ed25519 needs %d", len(x), ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(x), nil
}

// base64URL decodes the member name, base64url without padding (RFC 7515
// §2); trailing padding that some providers write is tolerated.
func base64URL(name, s string) ([]byte, error) {
	if s == "" {
		return nil, fmt.Errorf("%s is missing", name)
	}
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil {
		return nil, fmt.Errorf("%s is not base64url", name)
	}
	return b, nil
}

// trimZeros drops leading zero bytes.
func trimZeros(b []byte) []byte {
	for len(b) > 0 && b[0] == 0 {
		b = b[1:]
	}
	return b
}
