module github.com/gqlkit/gqlkit/examples/chi

go 1.25.0

replace github.com/gqlkit/gqlkit => ../..

require (
	github.com/go-chi/chi/v5 v5.5.0
	github.com/gqlkit/gqlkit v0.0.0-00010101000000-000000000000
	golang.org/x/crypto v0.55.0
)

require (
	github.com/agnivade/levenshtein v1.2.2 // indirect
	github.com/dustin/go-humanize v1.1.0 // indirect
	github.com/golang-jwt/jwt/v5 v5.3.1 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/mattn/go-isatty v0.0.24 // indirect
	github.com/ncruces/go-strftime v1.1.0 // indirect
	github.com/remyoudompheng/bigfft v0.0.0-20230129092748-24d4a6f8daec // indirect
	github.com/rs/xid v1.6.0 // indirect
	github.com/vektah/gqlparser/v2 v2.5.64 // indirect
	golang.org/x/sys v0.47.0 // indirect
	modernc.org/libc v1.76.0 // indirect
	modernc.org/mathutil v1.7.1 // indirect
	modernc.org/memory v1.12.1 // indirect
	modernc.org/sqlite v1.59.0 // indirect
)
