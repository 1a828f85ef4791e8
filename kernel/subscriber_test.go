package kernel_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/tick-kernel/tick/kernel/wire"
	"github.com/tick-kernel/tick/kernel/zmtp"
)

// jupyter console sends its first execute_request as soon as kernel_info
// is answered on shell, without waiting to see iopub traffic. When its
// subscription reaches the kernel late, that cell's status: idle must
// still reach it, or the console waits for it forever.
func TestLateFirstSubscriberGetsTheFirstCell(t *testing.T) {
	k, ci, _ := startKernel(t, zmtp.Limits{})
	key := []byte(ci.Key)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ep := func(name string) string { return fmt.Sprintf("tcp://%s:%d", ci.IP, k.Port(name)) }

	c := &client{t: t, key: key, shellMsgs: make(chan *wire.Message, 10), iopubMsgs: make(chan *wire.Message, 100),
		shell: zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("console-shell")))}
	t.Cleanup(func() { c.shell.Close() })
	if err := c.shell.Dial(ep("shell")); err != nil {
		t.Fatal(err)
	}
	go c.pump(c.shell, c.shellMsgs)
	h := c.send(c.shell, "execute_request", map[string]any{"code": "1+1", "silent": false, "store_history": true,
		"user_expressions": map[string]any{}, "allow_stdin": false, "stop_on_error": true}, key)
	if _, ok := c.await(c.shellMsgs, h, "execute_reply", 5*time.Second); ok {
		t.Log("the reply came before anyone subscribed to iopub")
	}

	time.Sleep(300 * time.Millisecond) // the subscription arrives late
	c.iopub = zmq4.NewSub(ctx)
	t.Cleanup(func() { c.iopub.Close() })
	if err := c.iopub.Dial(ep("iopub")); err != nil {
		t.Fatal(err)
	}
	if err := c.iopub.SetOption(zmq4.OptionSubscribe, ""); err != nil {
		t.Fatal(err)
	}
	go c.pump(c.iopub, c.iopubMsgs)
	for {
		m, ok := c.await(c.iopubMsgs, h, "status", 5*time.Second)
		if !ok {
			t.Fatal("the first cell's status: idle never reached the subscriber that joined late")
		}
		var st struct {
			ExecutionState string `json:"execution_state"`
		}
		if err := json.Unmarshal(m.Content, &st); err != nil {
			t.Fatal(err)
		}
		if st.ExecutionState == "idle" {
			return
		}
	}
}
