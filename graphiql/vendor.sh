#!/usr/bin/env bash
# vendor.sh refreshes dist/, the GraphiQL files that the package embeds,
# from the npm registry at the versions pinned below. Each file is stored
# gzip-compressed (the handler serves it as it is to clients that accept
# gzip), and dist/manifest.json records, for each one, the package, its
# version, the file's path in the package, the sha256 of the file as the
# package ships it and the package's registry integrity. The package's
# tests check the embedded files against the manifest.
#
# Needs npm, gzip and sha256sum. Run it from anywhere:
#
#	graphiql/vendor.sh
#
# then run `go test ./graphiql` and commit dist/.
set -euo pipefail
cd "$(dirname "$0")"

GRAPHIQL_VERSION=4.1.2 # the last major with a UMD build (see doc.go)
REACT_VERSION=18.3.1   # the last React with UMD builds; GraphiQL 4 takes 18 or 19

# name in dist/ | package | version | path in the package
files="graphiql.js|graphiql|$GRAPHIQL_VERSION|dist/index.umd.js
graphiql.css|graphiql|$GRAPHIQL_VERSION|dist/style.css
react.js|react|$REACT_VERSION|umd/react.production.min.js
react-dom.js|react-dom|$REACT_VERSION|umd/react-dom.production.min.js
LICENSE.graphiql|graphiql|$GRAPHIQL_VERSION|LICENSE
LICENSE.react|react|$REACT_VERSION|LICENSE
LICENSE.react-dom|react-dom|$REACT_VERSION|LICENSE"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Fetch and unpack each package once.
declare -A integrity
while IFS='|' read -r _ pkg version _; do
  key="$pkg@$version"
  [ -n "${integrity[$key]:-}" ] && continue
  mkdir -p "$tmp/$key"
  tarball=$(cd "$tmp" && npm pack --silent "$key")
  tar -xzf "$tmp/$tarball" -C "$tmp/$key"
  integrity[$key]=$(npm view "$key" dist.integrity)
done <<<"$files"

rm -rf dist
mkdir dist
{
  echo '{'
  echo '  "files": ['
  sep=''
  while IFS='|' read -r name pkg version path; do
    src="$tmp/$pkg@$version/package/$path"
    gzip -9 -n -c "$src" >"dist/$name.gz"
    sum=$(sha256sum "$src" | cut -d' ' -f1)
    printf '%s    {"name": "%s", "package": "%s", "version": "%s", "path": "%s", "sha256": "%s", "integrity": "%s"}' \
      "$sep" "$name" "$pkg" "$version" "$path" "$sum" "${integrity[$pkg@$version]}"
    sep=$',\n'
  done <<<"$files"
  echo
  echo '  ]'
  echo '}'
} >dist/manifest.json
echo "graphiql/dist refreshed: graphiql $GRAPHIQL_VERSION, react $REACT_VERSION"
