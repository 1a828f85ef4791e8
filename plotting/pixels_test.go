package plotting

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"testing"
)

// Image goldens are compared by their pixels, with a tolerance (the model
// is gonum's cmpimg): a pixel differs when one of its channels is more
// than pixelTolerance of full scale away from the golden's, and the image
// matches when at most maxDiffering of its pixels differ. Anti-aliasing
// may move a few edge pixels; a moved line, a missing label or a changed
// colour changes far more.
const (
	pixelTolerance = 0.1
	maxDiffering   = 0.001 // of the pixels
)

// pixelsDiffer compares got to want: an error that says how many pixels
// differ (and where the first is), or nil. When they differ, the image of
// the differences (differing pixels red on a faded copy of want) is
// written to diffPath, for a look.
func pixelsDiffer(got, want image.Image, diffPath string) error {
	if got.Bounds() != want.Bounds() {
		return fmt.Errorf("size %v, golden %v", got.Bounds(), want.Bounds())
	}
	b := want.Bounds()
	diff := image.NewRGBA(b)
	n, first := 0, image.Point{-1, -1}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			g, w := color.NRGBA64Model.Convert(got.At(x, y)).(color.NRGBA64), color.NRGBA64Model.Convert(want.At(x, y)).(color.NRGBA64)
			if channelsClose(g, w) {
				f := color.GrayModel.Convert(w).(color.Gray)
				diff.Set(x, y, color.Gray{Y: 192 + f.Y/4})
				continue
			}
			if n == 0 {
				first = image.Point{x, y}
			}
			n++
			diff.Set(x, y, color.RGBA{R: 255, A: 255})
		}
	}
	total := b.Dx() * b.Dy()
	if float64(n) <= maxDiffering*float64(total) {
		return nil
	}
	if f, err := os.Create(diffPath); err == nil {
		_ = png.Encode(f, diff)
		f.Close()
	}
	return fmt.Errorf("%d of %d pixels differ by more than %.0f%% (at most %.1f%% may), the first at %v; the differences are in %s",
		n, total, 100*pixelTolerance, 100*maxDiffering, first, diffPath)
}

func channelsClose(a, b color.NRGBA64) bool {
	tol := pixelTolerance
	limit := int(tol * 0xffff)
	for _, d := range []int{int(a.R) - int(b.R), int(a.G) - int(b.G), int(a.B) - int(b.B), int(a.A) - int(b.A)} {
		if d > limit || -d > limit {
			return false
		}
	}
	return true
}

// The comparison tells a changed chart from the same one: a golden
// matches itself, and not with a line drawn across it or its colours
// changed.
func TestPixelsDiffer(t *testing.T) {
	f, err := os.Open("testdata/histogram.png")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir() + "/diff.png"
	if err := pixelsDiffer(want, want, out); err != nil {
		t.Errorf("a golden differs from itself: %v", err)
	}
	b := want.Bounds()
	lined := image.NewRGBA(b)
	recoloured := image.NewRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.RGBAModel.Convert(want.At(x, y)).(color.RGBA)
			lined.Set(x, y, c)
			recoloured.Set(x, y, color.RGBA{R: c.B, G: c.R, B: c.G, A: c.A})
		}
	}
	for x := b.Min.X; x < b.Max.X; x++ {
		for y := b.Dy() / 2; y < b.Dy()/2+3; y++ {
			lined.Set(x, y, color.RGBA{R: 255, A: 255})
		}
	}
	if err := pixelsDiffer(lined, want, out); err == nil {
		t.Error("a line across the chart went unnoticed")
	}
	if err := pixelsDiffer(recoloured, want, out); err == nil {
		t.Error("changed colours went unnoticed")
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("no image of the differences: %v", err)
	}
}
