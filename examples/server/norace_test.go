//go:build !race

package main

// raceDetector tells whether the test binary runs under the race
// detector (see race_test.go).
const raceDetector = false
