// Interpreted in every session (see stdgo.go): math/rand/v2.N, through
// the native ᐩrt.RandN.

package stdgo

func ᐩstdmathᐩrandᐩv2ᐩN[ᐩT ~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64](n ᐩT) ᐩT {
	r := n
	ᐩrt.RandN(&r)
	return r
}
