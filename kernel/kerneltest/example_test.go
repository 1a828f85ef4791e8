package kerneltest_test

import (
	"fmt"

	"github.com/tick-kernel/tick/kernel"
	"github.com/tick-kernel/tick/kernel/kerneltest"
)

// A handler is served through a Mux into a Recorder, without sockets.
func Example() {
	mux := kernel.NewMux(nil)
	mux.HandleFunc("echo_request", func(w kernel.Responder, r *kernel.Request) {
		var c struct{ Text string }
		_ = r.Decode(&c)
		w.Stream("stdout", c.Text)
		_ = w.Reply("echo_reply", map[string]any{"status": "ok"})
	})
	rec := kerneltest.NewRecorder()
	mux.Serve(rec, kerneltest.NewRequest("echo_request", map[string]any{"text": "hi"}))
	fmt.Println(rec.Types())
	fmt.Println(rec.Replies()[0].MsgType, rec.Replies()[0].Content["status"])
	// Output:
	// [status stream status]
	// echo_reply ok
}
