package kernel

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
)

// ConnectionInfo is the content of a Jupyter connection file: where to bind
// each socket and the key that signs messages.
type ConnectionInfo struct {
	Transport       string `json:"transport"`
	IP              string `json:"ip"`
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	StdinPort       int    `json:"stdin_port"`
	IOPubPort       int    `json:"iopub_port"`
	HBPort          int    `json:"hb_port"`
	Key             string `json:"key"`
	SignatureScheme string `json:"signature_scheme"`
	KernelName      string `json:"kernel_name"`
}

// ReadConnectionFile reads and checks the connection file Jupyter passes to
// `tick kernel`.
func ReadConnectionFile(path string) (ConnectionInfo, error) {
	var ci ConnectionInfo
	b, err := os.ReadFile(path)
	if err != nil {
		return ci, fmt.Errorf("kernel: reading connection file: %w (Jupyter passes it as {connection_file}; run the kernel through jupyter or a kernelspec from `tick install`)", err)
	}
	if err := json.Unmarshal(b, &ci); err != nil {
		return ci, fmt.Errorf("kernel: connection file %s is not valid JSON: %w", path, err)
	}
	return ci, ci.check()
}

func (ci *ConnectionInfo) check() error {
	if ci.Transport == "" {
		ci.Transport = "tcp"
	}
	if ci.Transport != "tcp" && ci.Transport != "ipc" {
		return fmt.Errorf("kernel: connection file asks for transport %q; tick supports \"tcp\" and \"ipc\"", ci.Transport)
	}
	if ci.IP == "" {
		ci.IP = "127.0.0.1"
	}
	if ci.Key != "" && ci.SignatureScheme != "" && ci.SignatureScheme != "hmac-sha256" {
		return fmt.Errorf("kernel: connection file asks for signature scheme %q; tick supports only hmac-sha256", ci.SignatureScheme)
	}
	return nil
}

// endpoint returns the ZeroMQ endpoint of one port, with the given zmq4
// transport name for tcp ("tcp" or tick's own "tick-tcp").
func (ci ConnectionInfo) endpoint(port int, tcpName, ipcName string) string {
	if ci.Transport == "ipc" {
		return fmt.Sprintf("%s://%s-%d", ipcName, ci.IP, port)
	}
	return fmt.Sprintf("%s://%s", tcpName, net.JoinHostPort(strings.Trim(ci.IP, "[]"), strconv.Itoa(port)))
}
