package auth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"errors"
	"fmt"
)

// Sizes of the public keys a [Verifier] accepts.
const (
	// MinRSABits is the smallest RSA modulus accepted, from a JWKS or
	// [PublicKeys] (NIST SP 800-57: 2048 bits until 2030).
	MinRSABits = 2048

	// MaxRSABits is the largest RSA modulus accepted, which bounds the
	// work of one signature check.
	MaxRSABits = 8192
)

// Keys is the key material a [Verifier] checks signatures with, its first
// argument. It is one of:
//
//   - [HMAC]: the kit's own HS256 secret (and the secrets it replaced),
//     for the tokens an [Issuer] signs;
//   - [PublicKeys]: RSA, ECDSA P-256 or Ed25519 public keys fixed at start;
//   - a [*JWKS]: the public keys an identity provider publishes at a URL,
//     fetched and cached.
//
// Each key has one algorithm, and a token is checked only against the key
// its kid names, with that key's algorithm: HS256 for a secret, RS256 for
// an RSA key, ES256 for a P-256 key, EdDSA for an Ed25519 key. A token
// whose header names another algorithm than its key's is refused, so a
// public key is never taken for an HMAC secret.
type Keys interface {
	// source validates the key material and returns what looks keys up.
	source() (keySource, error)
}

// keySource looks up the key of a token.
type keySource interface {
	// algorithms are the algorithms of the keys it may return.
	algorithms() []string
	// key returns the key that kid names (hasKid false: the header has
	// no kid), for a token that arrived with ctx.
	key(ctx context.Context, kid string, hasKid bool) (verifyKey, error)
}

// verifyKey is one key and the algorithm pinned to it.
type verifyKey struct {
	kid string
	alg string // "HS256", "RS256", "ES256" or "EdDSA"
	key any    // []byte, *rsa.PublicKey, *ecdsa.PublicKey or ed25519.PublicKey
}

// own reports whether the key is one of the kit's own HMAC secrets, whose
// tokens carry a numeric sub and may carry a kit session.
func (k verifyKey) own() bool { return k.alg == algHS256 }

// The algorithms, as a JWS header names them (RFC 7518, RFC 8037).
const (
	algHS256 = "HS256"
	algRS256 = "RS256"
	algES256 = "ES256"
	algEdDSA = "EdDSA"
)

// HMAC returns the kit's own key material: secret, the HS256 key that an
// [Issuer] signs with (at least [MinSecretBytes] long; use random bytes,
// not a password), and previous, keys that only verify, from earlier
// rotations (see Key rotation in the package documentation). [NewVerifier]
// validates and copies them: a short secret, or a previous one that
// repeats the secret or another, is an error from it.
//
// A token with a kid is checked against the key the kid names ([KeyID]
// of each); a token without one (Laravel's jwt-auth issues none) against
// secret only; a kid naming no key is refused.
func HMAC(secret []byte, previous ...[]byte) Keys {
	return hmacKeys{secret: secret, previous: previous}
}

// hmacKeys is what [HMAC] returns.
type hmacKeys struct {
	secret   []byte
	previous [][]byte
}

func (h hmacKeys) source() (keySource, error) {
	var errs []error
	if err := checkSecret(h.secret); err != nil {
		errs = append(errs, err)
	}
	current := KeyID(h.secret)
	s := &hmacSource{current: current, keys: map[string][]byte{current: append([]byte(nil), h.secret...)}}
	for i, key := range h.previous {
		kid := KeyID(key)
		_, dup := s.keys[kid]
		switch {
		case len(key) < MinSecretBytes:
			errs = append(errs, fmt.Errorf("auth: previous secret %d is %d bytes; HS256 needs at least %d", i, len(key), MinSecretBytes))
		case kid == current:
			errs = append(errs, fmt.Errorf("auth: previous secret %d is the current secret", i))
		case dup:
			errs = append(errs, fmt.Errorf("auth: previous secret %d repeats an earlier previous secret", i))
		default:
			s.keys[kid] = append([]byte(nil), key...)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return s, nil
}

// checkSecret checks an HS256 secret's length.
func checkSecret(secret []byte) error {
	switch {
	case len(secret) == 0:
		return errors.New("auth: the HMAC secret is empty")
	case len(secret) < MinSecretBytes:
		return fmt.Errorf("auth: the HMAC secret is %d bytes; HS256 needs at least %d", len(secret), MinSecretBytes)
	}
	return nil
}

// hmacSource holds the secrets of [HMAC] by their [KeyID].
type hmacSource struct {
	current string
	keys    map[string][]byte
}

func (*hmacSource) algorithms() []string { return []string{algHS256} }

func (s *hmacSource) key(_ context.Context, kid string, hasKid bool) (verifyKey, error) {
	if !hasKid {
		kid = s.current
	}
	key, ok := s.keys[kid]
	if !ok {
		return verifyKey{}, fmt.Errorf("header kid %q names no configured key", truncate(kid, 64))
	}
	return verifyKey{kid: kid, alg: algHS256, key: key}, nil
}

// PublicKey is a public key that [PublicKeys] verifies with.
type PublicKey struct {
	// ID is the kid that tokens signed with its private key carry; ""
	// for the one key that tokens without a kid are checked against.
	ID string
	// Key is an *rsa.PublicKey (RS256, [MinRSABits] to [MaxRSABits]
	// bits), an *ecdsa.PublicKey on P-256 (ES256) or an
	// ed25519.PublicKey (EdDSA).
	Key crypto.PublicKey
}

// PublicKeys returns key material of fixed public keys, for tokens signed
// by a service that holds the private keys (an identity provider whose
// keys are configured rather than fetched; see [NewJWKS] for those that
// are fetched). Each key's type decides its algorithm. [NewVerifier]
// validates them: an unsupported key type or curve, an RSA key of the
// wrong size and an ID given twice are errors from it, and so is a
// [Config] without Issuer and Audience.
//
// Tokens verified with public keys are not the kit's: see Identity
// providers in the package documentation for what differs.
func PublicKeys(keys ...PublicKey) Keys { return publicKeys(keys) }

// publicKeys is what [PublicKeys] returns.
type publicKeys []PublicKey

func (p publicKeys) source() (keySource, error) {
	var errs []error
	if len(p) == 0 {
		errs = append(errs, errors.New("auth: PublicKeys has no key"))
	}
	set := make(keySet, len(p))
	for i, pk := range p {
		k, err := publicKey(pk.ID, pk.Key)
		if _, dup := set[pk.ID]; dup && err == nil {
			err = errors.New("its ID is given twice")
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("auth: PublicKeys[%d] (ID %q): %w", i, truncate(pk.ID, 64), err))
			continue
		}
		set[pk.ID] = k
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return staticSource{set}, nil
}

// publicKey pins the algorithm of a public key and checks it.
func publicKey(kid string, key crypto.PublicKey) (verifyKey, error) {
	switch k := key.(type) {
	case *rsa.PublicKey:
		if err := checkRSA(k); err != nil {
			return verifyKey{}, err
		}
		return verifyKey{kid: kid, alg: algRS256, key: k}, nil
	case *ecdsa.PublicKey:
		if k == nil || k.Curve != elliptic.P256() {
			return verifyKey{}, errors.New("an ECDSA key that is not on P-256 (only ES256 is supported)")
		}
		return verifyKey{kid: kid, alg: algES256, key: k}, nil
	case ed25519.PublicKey:
		if len(k) != ed25519.PublicKeySize {
			return verifyKey{}, fmt.Errorf("an Ed25519 key of %d bytes, not %d", len(k), ed25519.PublicKeySize)
		}
		return verifyKey{kid: kid, alg: algEdDSA, key: k}, nil
	}
	return verifyKey{}, fmt.Errorf("key type %T is not supported (use *rsa.PublicKey, *ecdsa.PublicKey or ed25519.PublicKey)", key)
}

// checkRSA checks the size and exponent of an RSA public key.
func checkRSA(k *rsa.PublicKey) error {
	switch {
	case k == nil || k.N == nil:
		return errors.New("an RSA key without a modulus")
	case k.N.BitLen() < MinRSABits || k.N.BitLen() > MaxRSABits:
		return fmt.Errorf("an RSA key of %d bits; %d to %d are accepted", k.N.BitLen(), MinRSABits, MaxRSABits)
	case k.E < 3 || k.E%2 == 0 || k.E > 1<<31-1:
		return errors.New("an RSA key whose public exponent is not an odd number from 3 to 2^31-1")
	}
	return nil
}

// keySet holds public keys by kid ("" for a key without one).
type keySet map[string]verifyKey

// lookup returns the key kid names.
func (s keySet) lookup(kid string) (verifyKey, bool) {
	k, ok := s[kid]
	return k, ok
}

// publicAlgorithms returns the algorithms of public keys.
func publicAlgorithms() []string { return []string{algRS256, algES256, algEdDSA} }

// staticSource is the source of [PublicKeys].
type staticSource struct{ set keySet }

func (staticSource) algorithms() []string { return publicAlgorithms() }

func (s staticSource) key(_ context.Context, kid string, _ bool) (verifyKey, error) {
	k, ok := s.set.lookup(kid)
	if !ok {
		return verifyKey{}, fmt.Errorf("header kid %q names no configured key", truncate(kid, 64))
	}
	return k, nil
}
