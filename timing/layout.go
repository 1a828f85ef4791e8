package timing

import (
	"strings"
	"unicode/utf8"
)

// TextWidth is the widest line the text blocks aim for, in characters.
// Classic Notebook 6 at its default width shows about 110 monospace
// characters of output per line, JupyterLab and terminals of 100 columns
// or more somewhat more: at 100 the blocks never wrap there, and where a
// front end is narrower (its CSS wraps at spaces, see the HTML form of
// the block) a line breaks between words, never inside one.
const TextWidth = 100

// row is one labelled line of a text block: "  stats   mean 1.06 µs · …".
// Each group starts a new line; the items of a group are joined with " · "
// and wrapped at TextWidth, continuation lines indented to the item
// column. Rows are data: a new field is a new item, a new kind of fact a
// new row, and the layout stays the same.
type row struct {
	label  string
	groups [][]string
}

// labelWidth is the width of the label column of result blocks
// ("provenance" is the longest label).
const labelWidth = 10

// sep separates the items of a row.
const sep = " · "

// writeRows lays rows out with their labels in a column.
func writeRows(b *strings.Builder, rows []row) {
	indent := "  " + strings.Repeat(" ", labelWidth+2)
	for _, r := range rows {
		first := true
		for _, g := range r.groups {
			if len(g) == 0 {
				continue
			}
			head := indent
			if first {
				head = "  " + pad(r.label, labelWidth) + "  "
				first = false
			}
			for _, l := range joinWrapped(g, TextWidth-len(indent)) {
				b.WriteString(head + l + "\n")
				head = indent
			}
		}
	}
}

// joinWrapped joins items with sep into lines of at most width characters,
// breaking between items when it can and between words of an item that
// does not fit on a line of its own.
func joinWrapped(items []string, width int) []string {
	var lines []string
	cur := ""
	for _, it := range items {
		switch {
		case cur == "":
			cur = it
		case runes(cur)+runes(sep)+runes(it) <= width:
			cur += sep + it
		default:
			lines = append(lines, cur)
			cur = it
		}
		if runes(cur) > width {
			ws := wrapWords(cur, width)
			lines = append(lines, ws[:len(ws)-1]...)
			cur = ws[len(ws)-1]
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// wrapWords breaks s at spaces into lines of at most width characters. A
// word longer than a line stays whole on a line of its own.
func wrapWords(s string, width int) []string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(s) {
		switch {
		case cur == "":
			cur = w
		case runes(cur)+1+runes(w) <= width:
			cur += " " + w
		default:
			lines = append(lines, cur)
			cur = w
		}
	}
	return append(lines, cur)
}

// writeWrapped writes s after head, word-wrapped at TextWidth, the
// continuation lines indented by the width of head.
func writeWrapped(b *strings.Builder, head, s string) {
	hang := strings.Repeat(" ", runes(head))
	for i, l := range wrapWords(s, TextWidth-runes(head)) {
		if i == 0 {
			b.WriteString(head + l + "\n")
		} else {
			b.WriteString(hang + l + "\n")
		}
	}
}

// WriteWrapped writes s after head, word-wrapped at TextWidth, the
// continuation lines indented by the width of head: for the text of other
// packages (%prof's, %viz's), so that every block keeps one width.
func WriteWrapped(b *strings.Builder, head, s string) { writeWrapped(b, head, s) }

// JoinWrapped joins items with " · " into lines of at most width
// characters, as the rows of the timing blocks are (see joinWrapped).
func JoinWrapped(items []string, width int) []string { return joinWrapped(items, width) }

func runes(s string) int { return utf8.RuneCountInString(s) }

func pad(s string, w int) string {
	if n := runes(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}
