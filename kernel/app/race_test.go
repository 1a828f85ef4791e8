//go:build race

package app_test

const raceEnabled = true
