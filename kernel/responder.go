package kernel

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/go-zeromq/zmq4"

	"github.com/tick-kernel/tick/kernel/wire"
)

// sockResponder answers one request over the kernel's sockets.
type sockResponder struct {
	k    *Kernel
	req  *Request
	sock zmq4.Socket
	mu   *sync.Mutex // serializes sends on sock
}

func (k *Kernel) responder(r *Request, sock zmq4.Socket, mu *sync.Mutex) *sockResponder {
	return &sockResponder{k: k, req: r, sock: sock, mu: mu}
}

// send encodes and sends a message to the request's sender on sock.
func (k *Kernel) send(sock zmq4.Socket, mu *sync.Mutex, req *wire.Message, msgType string, content any) error {
	raw, err := json.Marshal(content)
	if err != nil {
		return fmt.Errorf("kernel: encoding %s: %w", msgType, err)
	}
	msg := &wire.Message{
		Identities:   req.Identities,
		Header:       wire.NewHeader(msgType, k.session),
		ParentHeader: req.Header,
		Content:      raw,
	}
	frames, err := wire.Encode(msg, k.key)
	if err != nil {
		return err
	}
	mu.Lock()
	defer mu.Unlock()
	if err := sock.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		return fmt.Errorf("kernel: sending %s: %w", msgType, err)
	}
	return nil
}

func (w *sockResponder) Reply(msgType string, content any) error {
	err := w.k.send(w.sock, w.mu, w.req.Msg, msgType, content)
	if err != nil {
		fmt.Fprintf(w.k.log, "tick: %v\n", err)
	}
	return err
}

func (w *sockResponder) Publish(msgType string, content any) {
	w.k.pub.Publish(msgType, w.req.Msg.Header, content)
}

func (w *sockResponder) Stream(name, text string) {
	w.k.pub.Stream(w.req.Msg.Header, name, text)
}

// Input sends an input_request on stdin to the shell request's sender and
// waits for the input_reply; an interrupt or shutdown ends the wait.
func (w *sockResponder) Input(prompt string, password bool) (string, error) {
	k := w.k
	// Forget a stale reply or interrupt from an earlier prompt.
	select {
	case <-k.inputs:
	default:
	}
	select {
	case <-k.interrupt:
	default:
	}
	err := k.send(k.socks.stdin, &k.stdinMu, w.req.Msg, "input_request",
		map[string]any{"prompt": prompt, "password": password})
	if err != nil {
		return "", err
	}
	select {
	case m := <-k.inputs:
		var c struct {
			Value string `json:"value"`
		}
		if err := json.Unmarshal(m.Content, &c); err != nil {
			return "", fmt.Errorf("kernel: decoding input_reply: %w", err)
		}
		return c.Value, nil
	case <-k.interrupt:
		return "", fmt.Errorf("kernel: input interrupted")
	case <-k.ctx.Done():
		return "", fmt.Errorf("kernel: input cancelled: the kernel is shutting down")
	}
}
