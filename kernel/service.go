package kernel

import (
	"context"
	"runtime"
	"time"

	"github.com/tick-kernel/tick/kernel/session"
)

// Info describes the kernel in kernel_info_reply.
type Info struct {
	// Version is tick's version (with its commit), shown in the banner.
	Version string
	// Banner overrides the default banner when set.
	Banner string
	// LanguageVersion is language_info.version, the Go cells speak;
	// session.GoVersion when empty.
	LanguageVersion string
}

// Service holds the request handlers and their state: the evaluator, the
// execution counter, the history and the stop_on_error abort mark. Shell
// handlers run on one executor goroutine, so the counter and the abort mark
// need no lock; History locks itself.
type Service struct {
	runner session.Runner
	info   Info
	ctx    context.Context
	hist   History

	count int
	// abortBefore: execute requests received before this instant are
	// answered "aborted" (set when a cell fails with stop_on_error).
	abortBefore time.Time

	// interrupt stops the running cell (and a pending stdin read).
	interrupt func()
	// shutdown is called after shutdown_reply has been sent.
	shutdown func(restart bool)
	// warnings are appended to the banner (an empty key, a wildcard
	// address); set before serving.
	warnings []string
	// firstSession is the header.session of the first shell request: the
	// front end that started the kernel (origin.go). Written and read on
	// the shell executor only.
	firstSession string
}

// ServiceOptions configures NewService. Zero fields get defaults.
type ServiceOptions struct {
	Info Info
	// Context is passed to Runner.Execute; cancel it to stop the kernel.
	Context context.Context
	// Interrupt replaces Runner.Interrupt for interrupt_request.
	Interrupt func()
	// Shutdown is called after the shutdown_reply (restart is the
	// request's flag); nil ignores shutdown requests after replying.
	Shutdown func(restart bool)
}

// NewService returns the handlers for runner.
func NewService(runner session.Runner, opts ServiceOptions) *Service {
	s := &Service{runner: runner, info: opts.Info, ctx: opts.Context,
		interrupt: opts.Interrupt, shutdown: opts.Shutdown}
	if s.ctx == nil {
		s.ctx = context.Background()
	}
	if s.interrupt == nil {
		s.interrupt = runner.Interrupt
	}
	if s.shutdown == nil {
		s.shutdown = func(bool) {}
	}
	return s
}

// History returns the in-memory history of executed cells.
func (s *Service) History() *History { return &s.hist }

// Register installs the shell handlers on shell and the control handlers
// on control. kernel_info is served on both, as ipykernel does.
func (s *Service) Register(shell, control *Mux) {
	onShell := func(t string, f func(Responder, *Request)) {
		shell.HandleFunc(t, func(w Responder, r *Request) {
			if s.firstSession == "" {
				s.firstSession = r.Msg.Header.Session
			}
			f(w, r)
		})
	}
	onShell("kernel_info_request", s.kernelInfo)
	onShell("execute_request", s.execute)
	onShell("complete_request", s.complete)
	onShell("inspect_request", s.inspect)
	onShell("is_complete_request", s.isComplete)
	onShell("history_request", s.history)
	onShell("comm_info_request", s.commInfo)
	onShell("comm_open", s.commOpen)
	onShell("comm_msg", ignore)
	onShell("comm_close", ignore)
	control.HandleFunc("kernel_info_request", s.kernelInfo)
	control.HandleFunc("interrupt_request", s.interruptRequest)
	control.HandleFunc("shutdown_request", s.shutdownRequest)
}

func ignore(Responder, *Request) {}

func (s *Service) banner() string {
	b := s.info.Banner
	if b == "" {
		b = "tick " + s.info.Version + " — Go in Jupyter: cells speak Go " + s.languageVersion() +
			" (the yaegi interpreter); %%go cells compile with " + runtime.Version() + "\n" +
			"%help lists the magics; display.* shows rich output; !cmd runs a shell command."
	}
	for _, w := range s.warnings {
		b += "\n" + w
	}
	return b
}

func (s *Service) languageVersion() string {
	if s.info.LanguageVersion != "" {
		return s.info.LanguageVersion
	}
	return session.GoVersion
}

func (s *Service) kernelInfo(w Responder, r *Request) {
	_ = w.Reply("kernel_info_reply", map[string]any{
		"status":                 "ok",
		"protocol_version":       "5.3",
		"implementation":         "tick",
		"implementation_version": s.info.Version,
		"language_info": map[string]any{
			"name":               "go",
			"version":            s.languageVersion(),
			"mimetype":           "text/x-go",
			"file_extension":     ".go",
			"pygments_lexer":     "go",
			"codemirror_mode":    "go",
			"nbconvert_exporter": "script",
		},
		"banner": s.banner(),
		"help_links": []map[string]string{
			{"text": "Go language specification", "url": "https://go.dev/ref/spec"},
			{"text": "Go standard library", "url": "https://pkg.go.dev/std"},
			{"text": "yaegi (the interpreter)", "url": "https://github.com/traefik/yaegi"},
		},
	})
}

type codeCursor struct {
	Code      string `json:"code"`
	CursorPos int    `json:"cursor_pos"`
	Detail    int    `json:"detail_level"`
}

// runeToByte converts a cursor in code points (the protocol's unit since
// 5.2) to a byte offset into code.
func runeToByte(code string, cursor int) int {
	if cursor < 0 {
		return len(code)
	}
	n := 0
	for i := range code {
		if n == cursor {
			return i
		}
		n++
	}
	return len(code)
}

// byteToRune converts a byte offset into code to code points.
func byteToRune(code string, off int) int {
	off = max(0, min(off, len(code)))
	return len([]rune(code[:off]))
}

func (s *Service) complete(w Responder, r *Request) {
	var c codeCursor
	if err := r.Decode(&c); err != nil {
		replyError(w, "complete_reply", err)
		return
	}
	pos := runeToByte(c.Code, c.CursorPos)
	comp := s.runner.Complete(c.Code, pos)
	matches := comp.Matches
	if matches == nil {
		matches = []string{}
	}
	start, end := comp.Start, comp.End
	if len(comp.Matches) == 0 {
		start, end = pos, pos
	}
	_ = w.Reply("complete_reply", map[string]any{
		"status":       "ok",
		"matches":      matches,
		"cursor_start": byteToRune(c.Code, start),
		"cursor_end":   byteToRune(c.Code, end),
		"metadata":     completionTypes(comp, byteToRune(c.Code, start), byteToRune(c.Code, end)),
	})
}

// completionTypes is the complete_reply metadata front ends read the
// kind and signature of each match from (JupyterLab shows them):
// _jupyter_types_experimental, one entry per match, as IPython sends it.
func completionTypes(comp session.Completion, start, end int) map[string]any {
	if len(comp.Details) != len(comp.Matches) || len(comp.Matches) == 0 {
		return map[string]any{}
	}
	types := make([]map[string]any, len(comp.Matches))
	for i, m := range comp.Matches {
		types[i] = map[string]any{"start": start, "end": end, "text": m, "type": comp.Details[i].Kind, "signature": comp.Details[i].Signature}
	}
	return map[string]any{"_jupyter_types_experimental": types}
}

func (s *Service) inspect(w Responder, r *Request) {
	var c codeCursor
	if err := r.Decode(&c); err != nil {
		replyError(w, "inspect_reply", err)
		return
	}
	in := s.runner.Inspect(c.Code, runeToByte(c.Code, c.CursorPos), c.Detail)
	data := map[string]any{}
	if in.Found {
		data["text/plain"] = in.Text
		if in.Markdown != "" {
			data["text/markdown"] = in.Markdown
		}
	}
	_ = w.Reply("inspect_reply", map[string]any{
		"status":   "ok",
		"found":    in.Found,
		"data":     data,
		"metadata": map[string]any{},
	})
}

func (s *Service) isComplete(w Responder, r *Request) {
	var c codeCursor
	if err := r.Decode(&c); err != nil {
		replyError(w, "is_complete_reply", err)
		return
	}
	res := s.runner.IsComplete(c.Code)
	content := map[string]any{"status": res.Status}
	if res.Status == "incomplete" {
		content["indent"] = res.Indent
	}
	_ = w.Reply("is_complete_reply", content)
}

func (s *Service) history(w Responder, r *Request) {
	var q HistoryQuery
	if err := r.Decode(&q); err != nil {
		replyError(w, "history_reply", err)
		return
	}
	entries := s.hist.Query(q)
	out := make([]any, 0, len(entries))
	for _, e := range entries {
		if q.Output {
			var output any
			if e.Output != "" {
				output = e.Output
			}
			out = append(out, []any{e.Session, e.Line, []any{e.Input, output}})
		} else {
			out = append(out, []any{e.Session, e.Line, e.Input})
		}
	}
	_ = w.Reply("history_reply", map[string]any{"status": "ok", "history": out})
}

func (s *Service) commInfo(w Responder, r *Request) {
	_ = w.Reply("comm_info_reply", map[string]any{"status": "ok", "comms": map[string]any{}})
}

// commOpen answers a comm_open for a target tick does not have (it has
// none yet) by closing the comm, as ipykernel does. comm_close is part of
// the messaging spec's iopub messages, unlike comm_open and comm_msg which
// the jupyter_kernel_test validator rejects when published unasked.
func (s *Service) commOpen(w Responder, r *Request) {
	var c struct {
		CommID     string `json:"comm_id"`
		TargetName string `json:"target_name"`
	}
	if err := r.Decode(&c); err != nil || c.CommID == "" {
		return
	}
	w.Publish("comm_close", map[string]any{"comm_id": c.CommID, "data": map[string]any{}})
}

func (s *Service) interruptRequest(w Responder, r *Request) {
	s.interrupt()
	_ = w.Reply("interrupt_reply", map[string]any{"status": "ok"})
}

func (s *Service) shutdownRequest(w Responder, r *Request) {
	var c struct {
		Restart bool `json:"restart"`
	}
	_ = r.Decode(&c)
	s.interrupt()
	_ = w.Reply("shutdown_reply", map[string]any{"status": "ok", "restart": c.Restart})
	s.shutdown(c.Restart)
}

func replyError(w Responder, msgType string, err error) {
	_ = w.Reply(msgType, map[string]any{
		"status": "error", "ename": "BadRequest", "evalue": err.Error(), "traceback": []string{err.Error()},
	})
}
