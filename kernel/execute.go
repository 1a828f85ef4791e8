package kernel

import (
	"context"
	"encoding/base64"
	"errors"
	"time"

	"github.com/tick-kernel/tick/display"
	"github.com/tick-kernel/tick/kernel/session"
	cellpkg "github.com/tick-kernel/tick/kernel/session/cell"
)

type executeRequest struct {
	Code            string            `json:"code"`
	Silent          bool              `json:"silent"`
	StoreHistory    *bool             `json:"store_history"`
	UserExpressions map[string]string `json:"user_expressions"`
	AllowStdin      *bool             `json:"allow_stdin"`
	StopOnError     *bool             `json:"stop_on_error"`
}

func orDefault(b *bool, def bool) bool {
	if b == nil {
		return def
	}
	return *b
}

// errStdinNotAllowed is what user code reading stdin gets when the frontend
// cannot answer input requests.
var errStdinNotAllowed = errors.New("kernel: this frontend does not accept input requests (allow_stdin is false); " +
	"pass the input some other way, for example as a variable in a cell")

func (s *Service) execute(w Responder, r *Request) {
	defer memory.cell()() // a cell's burst of allocations goes back to the OS (memory.go)
	var req executeRequest
	if err := r.Decode(&req); err != nil {
		replyError(w, "execute_reply", err)
		return
	}
	if r.Received.Before(s.abortBefore) {
		_ = w.Reply("execute_reply", map[string]any{"status": "aborted", "execution_count": s.count})
		return
	}
	storeHistory := orDefault(req.StoreHistory, true) && !req.Silent
	if storeHistory {
		s.count++
	}
	if !req.Silent {
		w.Publish("execute_input", map[string]any{"code": req.Code, "execution_count": s.count})
	}
	sink := session.Discard
	if !req.Silent {
		sink = responderSink{w}
	}
	cell := session.Cell{Code: req.Code, Count: s.count}
	if orDefault(req.AllowStdin, true) {
		cell.Stdin = w.Input
	} else {
		cell.Stdin = func(string, bool) (string, error) { return "", errStdinNotAllowed }
	}
	res := s.runCell(withOrigin(s.ctx, r.Msg.Header.Session, s.firstSession), cell, sink)

	output := ""
	if res.Value != nil {
		if txt, ok := res.Value.Bundle["text/plain"].(string); ok {
			output = txt
		}
		if !req.Silent {
			w.Publish("execute_result", map[string]any{
				"execution_count": s.count,
				"data":            mimeData(res.Value.Bundle),
				"metadata":        metadata(res.Value.Metadata),
			})
		}
	}
	if storeHistory {
		s.hist.Add(s.count, req.Code, output)
	}
	if res.Err != nil {
		if !req.Silent {
			w.Publish("error", errorContent(res.Err))
		}
		reply := errorContent(res.Err)
		reply["status"] = "error"
		reply["execution_count"] = s.count
		_ = w.Reply("execute_reply", reply)
		// As ipykernel: after a failed (non-silent) cell, executes that
		// arrived before this reply was sent are answered "aborted".
		if orDefault(req.StopOnError, true) && !req.Silent {
			s.abortBefore = time.Now()
		}
		return
	}
	payload := []any{}
	if res.Page != "" {
		payload = append(payload, map[string]any{
			"source": "page", "data": map[string]any{"text/plain": res.Page}, "start": 0,
		})
	}
	_ = w.Reply("execute_reply", map[string]any{
		"status":           "ok",
		"execution_count":  s.count,
		"payload":          payload,
		"user_expressions": s.userExpressions(req.UserExpressions),
	})
}

// runCell runs the cell on a goroutine of its own, so that
// runtime.Goexit in user code ends that goroutine and not the shell
// executor: the cell gets an error, the executor keeps serving. A panic
// escaping the runner (it recovers the cell's own) becomes an error too.
func (s *Service) runCell(ctx context.Context, c session.Cell, sink session.Sink) session.Result {
	done := make(chan session.Result, 1)
	go func() {
		finished := false
		defer func() {
			if finished {
				return
			}
			if v := recover(); v != nil {
				done <- session.Result{Err: cellpkg.Errorf(cellpkg.RuntimeError,
					"tick failed running the cell: %v (the kernel is still running; please report this with the kernel log)", v)}
				return
			}
			done <- session.Result{Err: cellpkg.Errorf(cellpkg.RuntimeError,
				"the cell called runtime.Goexit, which ends the goroutine running it: the cell stopped there; "+
					"variables defined before it are kept and the kernel goes on (return from the cell instead)")}
		}()
		res := s.runner.Execute(ctx, c, sink)
		finished = true
		done <- res
	}()
	return <-done
}

// userExpressions evaluates each expression as a silent cell.
func (s *Service) userExpressions(exprs map[string]string) map[string]any {
	out := map[string]any{}
	for name, code := range exprs {
		res := s.runner.Execute(s.ctx, session.Cell{Code: code, Count: s.count}, session.Discard)
		switch {
		case res.Err != nil:
			e := errorContent(res.Err)
			e["status"] = "error"
			out[name] = e
		case res.Value != nil:
			out[name] = map[string]any{"status": "ok", "data": mimeData(res.Value.Bundle), "metadata": metadata(res.Value.Metadata)}
		default:
			out[name] = map[string]any{"status": "ok", "data": map[string]any{}, "metadata": map[string]any{}}
		}
	}
	return out
}

func errorContent(e *session.Error) map[string]any {
	tb := e.Traceback
	if tb == nil {
		tb = []string{e.Error()}
	}
	return map[string]any{"ename": e.Name, "evalue": e.Value, "traceback": tb}
}

// mimeData turns a display.Bundle into Jupyter's data dict: binary values
// ([]byte, e.g. image/png) are base64-encoded.
func mimeData(b display.Bundle) map[string]any {
	out := make(map[string]any, len(b))
	for k, v := range b {
		if raw, ok := v.([]byte); ok {
			out[k] = base64.StdEncoding.EncodeToString(raw)
			continue
		}
		out[k] = v
	}
	return out
}

func metadata(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// responderSink adapts a Responder to session.Sink: display.Publisher
// calls become display_data / update_display_data / clear_output, streams
// become stream messages.
type responderSink struct{ w Responder }

func displayContent(d display.Data) map[string]any {
	c := map[string]any{"data": mimeData(d.Bundle), "metadata": metadata(d.Metadata), "transient": map[string]any{}}
	if d.ID != "" {
		c["transient"] = map[string]any{"display_id": d.ID}
	}
	return c
}

func (s responderSink) Publish(d display.Data) { s.w.Publish("display_data", displayContent(d)) }
func (s responderSink) Update(d display.Data) {
	s.w.Publish("update_display_data", displayContent(d))
}
func (s responderSink) Clear(wait bool) {
	s.w.Publish("clear_output", map[string]any{"wait": wait})
}
func (s responderSink) Stream(name, text string) { s.w.Stream(name, text) }
