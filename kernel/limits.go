package kernel

import (
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"github.com/tick-kernel/tick/internal/memlimit"
	"github.com/tick-kernel/tick/kernel/zmtp"
)

// limits returns the socket limits: the configured ones, then for unset
// fields TICK_MAX_MESSAGE (bytes), TICK_WRITE_TIMEOUT and
// TICK_HANDSHAKE_TIMEOUT (durations), then zmtp's defaults.
func (k *Kernel) limits() (zmtp.Limits, error) {
	lim := k.cfg.Limits
	lim.Log = k.log
	if lim.MaxMessage == 0 {
		if v := os.Getenv("TICK_MAX_MESSAGE"); v != "" {
			n, err := memlimit.ParseSize(v)
			if err != nil {
				return lim, fmt.Errorf("kernel: TICK_MAX_MESSAGE: %w", err)
			}
			lim.MaxMessage = n
		}
	}
	for _, d := range []struct {
		env string
		v   *time.Duration
	}{{"TICK_WRITE_TIMEOUT", &lim.Write}, {"TICK_HANDSHAKE_TIMEOUT", &lim.Handshake}} {
		if v := os.Getenv(d.env); v != "" && *d.v == 0 {
			t, err := time.ParseDuration(v)
			if err != nil || t <= 0 {
				return lim, fmt.Errorf("kernel: %s=%q is not a duration (write 10s or 500ms)", d.env, v)
			}
			*d.v = t
		}
	}
	return lim, nil
}

// Exposure warnings, printed on stderr and kept for the banner.
const (
	warnEmptyKey = "WARNING: the connection file has an empty key: messages are not signed, and any local process " +
		"that reaches the ports can run code as you. Let Jupyter write the connection file (it sets a random key)."
	warnWildcard = "WARNING: the kernel listens on all network interfaces (%s): anyone who can reach this machine " +
		"can connect. Use ip 127.0.0.1 unless you mean it, and keep a key."
)

// exposure returns the warnings for the connection info: an empty key,
// a wildcard address.
func (ci ConnectionInfo) exposure() []string {
	var w []string
	if ci.Key == "" {
		w = append(w, warnEmptyKey)
	}
	if ci.Transport == "tcp" {
		ip := net.ParseIP(strings.Trim(ci.IP, "[]"))
		if ci.IP == "*" || (ip != nil && ip.IsUnspecified()) {
			w = append(w, fmt.Sprintf(warnWildcard, ci.IP))
		}
	}
	return w
}

// warnExposure prints the exposure warnings on the log (stderr) and adds
// them to the banner.
func (k *Kernel) warnExposure() {
	w := k.cfg.Conn.exposure()
	for _, line := range w {
		fmt.Fprintln(k.log, "tick: "+line)
	}
	k.service.warnings = w
}
