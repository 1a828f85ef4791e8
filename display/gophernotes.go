package display

import "fmt"

// Notebooks written for gophernotes (another Go kernel) display rich
// output with display.HTML(...), display.Markdown(...), display.PNG(...)
// and Display(...), and build bundles as display.MIMEMap{...}. In tick the
// display functions show their output at once (gophernotes shows a value
// returned at the prompt; the two look the same in a notebook), and these
// thin aliases make the rest of that code run.

// MIMEMap is gophernotes' name for a MIME bundle.
type MIMEMap = Bundle

// Display shows v: a Bundle (MIMEMap) or Data as a new output, a string
// as text, anything else as its fmt %v text. A *Handle has been shown
// already (tick's display functions show what they make), so it shows
// nothing new: gophernotes' `Display(display.HTML(...))` shows the HTML
// once. (gophernotes' Display returns an error; this one has no result,
// so a cell ending in it shows no value.)
func Display(v any) {
	switch x := v.(type) {
	case *Handle:
	case Bundle:
		Show(x)
	case map[string]any:
		Show(Bundle(x))
	case Data:
		Show(x.Bundle)
	case *Data:
		Show(x.Bundle)
	case string:
		Text(x)
	default:
		Text(fmt.Sprint(v))
	}
}

// Math shows a LaTeX formula in display math ($$...$$), as gophernotes'
// display.Math does.
func Math(latex string) *Handle {
	return Show(Bundle{"text/latex": "$$" + latex + "$$", "text/plain": latex})
}

// Latex shows LaTeX text (inline math between $ signs).
func Latex(latex string) *Handle {
	return Show(Bundle{"text/latex": latex, "text/plain": latex})
}

// JPEG shows JPEG-encoded image bytes.
func JPEG(data []byte) *Handle {
	return Show(Bundle{"image/jpeg": data, "text/plain": fmt.Sprintf("<JPEG image, %d bytes>", len(data))})
}
