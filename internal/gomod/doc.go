// Package gomod holds a test of the kit's go.mod: every module it requires
// directly is imported by one of the kit's own packages, so that a service
// that imports the kit is not made to download what only an example needs
// (examples that bring another router live in modules of their own).
package gomod
