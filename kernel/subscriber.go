package kernel

import (
	"context"
	"time"

	"github.com/go-zeromq/zmq4"
)

// firstSubscriber holds iopub's first messages until a client has
// subscribed, once per kernel and for a bounded time.
//
// A PUB socket drops what it publishes before a subscription arrives (the
// "slow joiner"). Most clients nudge the kernel with kernel_info until they
// see iopub traffic, but jupyter console does not: it connects all five
// sockets, reads kernel_info_reply on shell and sends its first
// execute_request at once. When the SUB's subscription reaches the kernel
// after that cell's status: idle (a few milliseconds on a loaded machine),
// the console waits for that idle forever: 3 of 40 piped runs hung here at
// load 4. So before the first message that would reach a subscriber, the
// writer waits (polling zmq4's subscription list) until someone subscribed,
// at most budget over the kernel's life; afterwards publishing is as
// before, and a kernel nobody subscribes to loses budget once.
type firstSubscriber struct {
	topics zmq4.Topics // nil when the socket cannot say: never waits
	budget time.Duration
	poll   time.Duration
	seen   bool
}

// subscriberBudget bounds how long the first messages wait in all.
const subscriberBudget = 2 * time.Second

func newFirstSubscriber(sock zmq4.Socket) *firstSubscriber {
	t, _ := sock.(zmq4.Topics)
	return &firstSubscriber{topics: t, budget: subscriberBudget, poll: 2 * time.Millisecond}
}

// wait returns when a client has subscribed, the budget is spent or ctx
// ends. It is called from iopub's one writer goroutine only.
func (f *firstSubscriber) wait(ctx context.Context) {
	if f.seen || f.topics == nil || f.budget <= 0 {
		return
	}
	start := time.Now()
	defer func() { f.budget -= time.Since(start) }()
	t := time.NewTicker(f.poll)
	defer t.Stop()
	for {
		if len(f.topics.Topics()) > 0 {
			f.seen = true
			return
		}
		if time.Since(start) >= f.budget {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
