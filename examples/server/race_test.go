//go:build race

package main

// raceDetector tells whether the test binary runs under the race
// detector, where SQLite in the test's own process (modernc.org/sqlite: C
// translated to Go, every memory access instrumented) runs some twenty
// times slower.
const raceDetector = true
