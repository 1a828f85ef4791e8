package notebook

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"
)

// HTMLOptions control WriteHTML.
type HTMLOptions struct {
	// Title of the page; when empty, the first Markdown heading, else
	// "Notebook".
	Title string
}

// markdown renders notebook Markdown: GitHub-flavoured (tables, strike-
// through, task lists), raw HTML kept as notebook front ends do. goldmark
// converters are safe for concurrent use.
var markdown = goldmark.New(
	goldmark.WithExtensions(extension.GFM),
	goldmark.WithRendererOptions(gmhtml.WithUnsafe()),
)

// ansi matches terminal escape sequences (CSI and OSC), stripped from text.
var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]`)

// StripANSI removes terminal escape sequences from s.
func StripANSI(s string) string { return ansi.ReplaceAllString(s, "") }

// displayOrder is the MIME ranking of Jupyter's classic Notebook (and
// nbconvert's HTML): a bundle shows its first type in this list, the rest
// stay in the notebook. application/javascript, first there, is left out:
// a static page does not run the kernel's scripts. JSON (application/json
// and vendor +json types) is never shown raw: it is data for programs,
// beside a text form for people.
var displayOrder = []string{"text/html", "text/markdown", "text/latex", "image/svg+xml",
	"image/png", "image/jpeg", "image/gif", "image/webp", "text/plain"}

// PreferredMIME returns the MIME type of d a classic Jupyter front end
// shows, or "" when it shows none of them.
func PreferredMIME(d MIMEBundle) string {
	for _, m := range displayOrder {
		if _, ok := d.Text(m); ok {
			return m
		}
	}
	return ""
}

// WriteHTML writes nb as one self-contained HTML page: CSS inline, images
// inline (PNG and other bitmaps as data: URIs, SVG as markup), Markdown
// rendered, code escaped, In[n] labels, errors styled and terminal escapes
// stripped.
func WriteHTML(w io.Writer, nb *Notebook, opts HTMLOptions) error {
	bw := bufio.NewWriter(w)
	title := opts.Title
	if title == "" {
		title = firstHeading(nb)
	}
	fmt.Fprintf(bw, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"+
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"+
		"<title>%s</title>\n<style>%s%s</style>\n</head>\n<body>\n<main>\n", html.EscapeString(title), pageCSS, highlightCSS())
	for i, c := range nb.Cells {
		if err := writeCellHTML(bw, c); err != nil {
			return fmt.Errorf("notebook: html: cell %d: %w", i+1, err)
		}
	}
	bw.WriteString("</main>\n</body>\n</html>\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("notebook: html: %w", err)
	}
	return nil
}

func writeCellHTML(w *bufio.Writer, c *Cell) error {
	switch c.Type {
	case Markdown:
		w.WriteString("<section class=\"cell markdown\">\n")
		if err := markdown.Convert([]byte(resolveAttachments(c)), w); err != nil {
			return err
		}
		w.WriteString("</section>\n")
	case Raw:
		fmt.Fprintf(w, "<section class=\"cell raw\"><pre>%s</pre></section>\n", html.EscapeString(c.Source))
	case Code:
		label := " "
		if c.ExecutionCount != nil {
			label = fmt.Sprint(*c.ExecutionCount)
		}
		fmt.Fprintf(w, "<section class=\"cell code\">\n<div class=\"input\"><span class=\"prompt\">In[%s]:</span>"+
			"<pre class=\"source chroma\"><code class=\"language-go\">%s</code></pre></div>\n", label, highlightGo(c.Source))
		if len(c.Outputs) > 0 {
			w.WriteString("<div class=\"outputs\">\n")
			for _, o := range c.Outputs {
				if err := writeOutputHTML(w, o); err != nil {
					return err
				}
			}
			w.WriteString("</div>\n")
		}
		w.WriteString("</section>\n")
	}
	return nil
}

func writeOutputHTML(w *bufio.Writer, o *Output) error {
	switch o.Type {
	case Stream:
		fmt.Fprintf(w, "<pre class=\"output stream %s\">%s</pre>\n", html.EscapeString(o.Name), html.EscapeString(StripANSI(collapseCR(o.Text))))
	case ErrorOutput:
		text := StripANSI(strings.Join(o.Traceback, "\n"))
		if text == "" {
			text = o.EName + ": " + o.EValue
		}
		esc := html.EscapeString(text)
		// The error's name, where the traceback starts with it, in bold.
		if head := html.EscapeString(o.EName + ":"); o.EName != "" && strings.HasPrefix(esc, head) {
			esc = "<b class=\"ename\">" + head + "</b>" + esc[len(head):]
		}
		fmt.Fprintf(w, "<pre class=\"output error\">%s</pre>\n", esc)
	case ExecuteResult:
		label := " "
		if o.ExecutionCount != nil {
			label = fmt.Sprint(*o.ExecutionCount)
		}
		fmt.Fprintf(w, "<div class=\"result\"><span class=\"prompt out\">Out[%s]:</span>", label)
		err := writeBundleHTML(w, o)
		w.WriteString("</div>\n")
		return err
	case DisplayData:
		return writeBundleHTML(w, o)
	}
	return nil
}

// writeBundleHTML shows a MIME bundle as the classic Notebook does: its
// PreferredMIME, images at the size their metadata gives.
func writeBundleHTML(w *bufio.Writer, o *Output) error {
	d := o.Data
	w.WriteString("<div class=\"output display\">")
	defer w.WriteString("</div>\n")
	mime := PreferredMIME(d)
	s, _ := d.Text(mime)
	switch {
	case mime == "text/html":
		w.WriteString(s)
	case mime == "text/markdown":
		return markdown.Convert([]byte(s), w)
	case mime == "text/latex":
		fmt.Fprintf(w, "<pre class=\"latex\">%s</pre>", html.EscapeString(s))
	case mime == "image/svg+xml":
		w.WriteString(s)
	case strings.HasPrefix(mime, "image/"):
		b64 := strings.Join(strings.Fields(s), "")
		fmt.Fprintf(w, "<img src=\"data:%s;base64,%s\"%s alt=\"%s\">", mime, b64, imageSize(o, mime), html.EscapeString(altText(d, mime)))
	case mime == "text/plain":
		fmt.Fprintf(w, "<pre>%s</pre>", html.EscapeString(StripANSI(s)))
	default:
		if raw, ok := d["application/json"].(json.RawMessage); ok {
			// Classic shows nothing here; a page had better show the data.
			var buf bytes.Buffer
			if json.Indent(&buf, raw, "", "  ") != nil {
				buf.Reset()
				buf.Write(raw)
			}
			fmt.Fprintf(w, "<pre class=\"json\">%s</pre>", html.EscapeString(buf.String()))
		}
	}
	return nil
}

// imageSize returns width and height attributes from the output's
// metadata ({"image/png": {"width": 480, "height": 336}}), so an image
// drawn at twice its size for HiDPI screens shows at its layout size.
func imageSize(o *Output, mime string) string {
	raw, ok := o.Metadata[mime]
	if !ok {
		return ""
	}
	var size struct{ Width, Height float64 }
	if json.Unmarshal(raw, &size) != nil {
		return ""
	}
	s := ""
	if size.Width > 0 {
		s += fmt.Sprintf(" width=\"%g\"", size.Width)
	}
	if size.Height > 0 {
		s += fmt.Sprintf(" height=\"%g\"", size.Height)
	}
	return s
}

// altText is an image's text alternative: the bundle's text/plain.
func altText(d MIMEBundle, mime string) string {
	if s, ok := d.Text("text/plain"); ok {
		return s
	}
	return mime + " output"
}

// collapseCR applies carriage returns the way a terminal shows them: text
// after a "\r" overwrites its line (progress bars).
func collapseCR(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if j := strings.LastIndexByte(l, '\r'); j >= 0 {
			lines[i] = l[j+1:]
		}
	}
	return strings.Join(lines, "\n")
}

// attachmentRef matches a Markdown reference to a cell attachment.
var attachmentRef = regexp.MustCompile(`attachment:([^)\s"']+)`)

// resolveAttachments replaces attachment:NAME references of a Markdown cell
// with data: URIs of the attached images.
func resolveAttachments(c *Cell) string {
	if len(c.Attachments) == 0 {
		return c.Source
	}
	var att map[string]map[string]any
	if json.Unmarshal(c.Attachments, &att) != nil {
		return c.Source
	}
	return attachmentRef.ReplaceAllStringFunc(c.Source, func(ref string) string {
		name := strings.TrimPrefix(ref, "attachment:")
		for mime, v := range att[name] {
			var s string
			switch v := v.(type) {
			case string:
				s = v
			case []any:
				for _, p := range v {
					ps, _ := p.(string)
					s += ps
				}
			}
			return "data:" + mime + ";base64," + strings.Join(strings.Fields(s), "")
		}
		return ref
	})
}

// firstHeading returns the text of the first Markdown heading of nb.
func firstHeading(nb *Notebook) string {
	for _, c := range nb.Cells {
		if c.Type != Markdown {
			continue
		}
		for _, l := range strings.Split(c.Source, "\n") {
			if t := strings.TrimLeft(l, "#"); len(t) < len(l) && strings.HasPrefix(t, " ") {
				return strings.TrimSpace(t)
			}
		}
	}
	return "Notebook"
}

const pageCSS = `
body { margin: 0; background: #fafafa; color: #1f2328;
  font: 15px/1.55 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; }
main { max-width: 980px; margin: 0 auto; padding: 24px 16px 64px; }
.cell { margin: 14px 0; }
.markdown { padding: 0 6px 0 76px; }
.markdown table { border-collapse: collapse; }
.markdown th, .markdown td { border: 1px solid #d0d7de; padding: 4px 10px; }
.markdown code { background: #eff1f3; padding: 1px 4px; border-radius: 4px; }
.markdown pre code { background: none; padding: 0; }
pre { margin: 0; font: 13px/1.45 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace;
  white-space: pre-wrap; word-wrap: break-word; tab-size: 4; }
.input { display: flex; align-items: flex-start; }
.prompt { flex: 0 0 70px; color: #3050b0; font: 13px/1.45 ui-monospace, Menlo, monospace;
  padding-top: 8px; text-align: right; margin-right: 6px; }
.source { flex: 1; background: #f3f5f7; border: 1px solid #d8dee4; border-radius: 4px; padding: 8px; overflow-x: auto; }
.outputs { margin-left: 76px; padding: 6px 0; }
.result { display: flex; align-items: flex-start; margin-left: -76px; }
.result .display { flex: 1; }
.prompt.out { color: #b03050; padding-top: 0; }
.output { margin: 4px 0; }
.stream.stderr { background: #fff5f5; }
.error { background: #ffebe9; border-left: 4px solid #cf222e; padding: 6px 8px; color: #82071e; }
.display img { max-width: 100%; height: auto; }
.display svg { max-width: 100%; height: auto; }
.json { color: #0a3069; }
.source .magic { color: #8250df; font-weight: 600; }
.ename { color: #cf222e; }
.raw pre { color: #57606a; padding-left: 76px; }
`
