package install

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
)

// Logo colours: Go's gopher blue with a white tick.
var (
	logoBlue  = color.NRGBA{0x00, 0xAD, 0xD8, 0xFF}
	logoWhite = color.NRGBA{0xFF, 0xFF, 0xFF, 0xFF}
)

// Logo draws tick's logo at size×size pixels: a blue disc with a white
// check mark, anti-aliased by 4×4 supersampling.
func Logo(size int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	const ss = 4
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			var blue, white int
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					u := (float64(x) + (float64(sx)+0.5)/ss) / float64(size)
					v := (float64(y) + (float64(sy)+0.5)/ss) / float64(size)
					switch {
					case onTick(u, v):
						white++
					case math.Hypot(u-0.5, v-0.5) <= 0.48:
						blue++
					}
				}
			}
			img.SetNRGBA(x, y, mix(blue, white, ss*ss))
		}
	}
	return img
}

// onTick reports whether (u, v) in the unit square lies on the check mark:
// two thick segments (0.27,0.52)–(0.43,0.68) and (0.43,0.68)–(0.74,0.33).
func onTick(u, v float64) bool {
	const w = 0.065
	return segDist(u, v, 0.27, 0.52, 0.43, 0.68) <= w || segDist(u, v, 0.43, 0.68, 0.74, 0.33) <= w
}

func segDist(px, py, ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	t := ((px-ax)*dx + (py-ay)*dy) / (dx*dx + dy*dy)
	t = math.Max(0, math.Min(1, t))
	return math.Hypot(px-(ax+t*dx), py-(ay+t*dy))
}

// mix blends blue and white coverage (out of n samples) over transparency.
func mix(blue, white, n int) color.NRGBA {
	cover := blue + white
	if cover == 0 {
		return color.NRGBA{}
	}
	c := func(b, w uint8) uint8 { return uint8((int(b)*blue + int(w)*white) / cover) }
	return color.NRGBA{
		R: c(logoBlue.R, logoWhite.R), G: c(logoBlue.G, logoWhite.G), B: c(logoBlue.B, logoWhite.B),
		A: uint8(255 * cover / n),
	}
}

// WriteLogo encodes the size×size logo as PNG to w.
func WriteLogo(w io.Writer, size int) error {
	if err := png.Encode(w, Logo(size)); err != nil {
		return fmt.Errorf("install: encoding logo: %w", err)
	}
	return nil
}
