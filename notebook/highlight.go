package notebook

import (
	"bytes"
	"html"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	chtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// Code cells are highlighted with chroma's Go lexer, as CSS classes (the
// stylesheet is written once per page). Magic lines (%timeit …, and the
// %%magic line of a cell magic) are not Go: they are marked as magics and
// the Go around them is highlighted on its own.

var (
	goLexer   = chroma.Coalesce(lexers.Get("go"))
	codeStyle = styles.Get("github")
	formatter = chtml.New(chtml.WithClasses(true), chtml.PreventSurroundingPre(true))
	styleOnce = sync.OnceValue(func() string {
		var b bytes.Buffer
		if err := formatter.WriteCSS(&b, codeStyle); err != nil {
			return ""
		}
		return b.String()
	})
)

// highlightCSS is the stylesheet of highlighted code.
func highlightCSS() string { return styleOnce() }

// highlightGo returns src as HTML with Go syntax highlighted and magic
// lines marked. Whatever chroma cannot tokenize is escaped as plain text.
func highlightGo(src string) string {
	var b strings.Builder
	lines := strings.SplitAfter(src, "\n")
	var goPart strings.Builder
	flush := func() {
		if goPart.Len() == 0 {
			return
		}
		b.WriteString(highlightChunk(goPart.String()))
		goPart.Reset()
	}
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "%") {
			flush()
			body, nl := strings.CutSuffix(l, "\n")
			b.WriteString(`<span class="magic">` + html.EscapeString(body) + `</span>`)
			if nl {
				b.WriteString("\n")
			}
			continue
		}
		goPart.WriteString(l)
	}
	flush()
	return b.String()
}

func highlightChunk(src string) string {
	it, err := goLexer.Tokenise(nil, src)
	if err != nil {
		return html.EscapeString(src)
	}
	var b bytes.Buffer
	if err := formatter.Format(&b, codeStyle, it); err != nil {
		return html.EscapeString(src)
	}
	return b.String()
}
