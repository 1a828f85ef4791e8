// Interpreted in every session (see stdgo.go): the generic functions of
// package maps; its iterators are functions taking a yield callback.

package stdgo

func ᐩstdmapsᐩKeys[ᐩK comparable, ᐩV any](m map[ᐩK]ᐩV) func(yield func(ᐩK) bool) {
	return func(yield func(ᐩK) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func ᐩstdmapsᐩValues[ᐩK comparable, ᐩV any](m map[ᐩK]ᐩV) func(yield func(ᐩV) bool) {
	return func(yield func(ᐩV) bool) {
		for _, v := range m {
			if !yield(v) {
				return
			}
		}
	}
}

func ᐩstdmapsᐩAll[ᐩK comparable, ᐩV any](m map[ᐩK]ᐩV) func(yield func(ᐩK, ᐩV) bool) {
	return func(yield func(ᐩK, ᐩV) bool) {
		for k, v := range m {
			if !yield(k, v) {
				return
			}
		}
	}
}

func ᐩstdmapsᐩCollect[ᐩK comparable, ᐩV any](seq func(yield func(ᐩK, ᐩV) bool)) map[ᐩK]ᐩV {
	out := map[ᐩK]ᐩV{}
	seq(func(k ᐩK, v ᐩV) bool { out[k] = v; return true })
	return out
}

func ᐩstdmapsᐩClone[ᐩK comparable, ᐩV any](m map[ᐩK]ᐩV) map[ᐩK]ᐩV {
	if m == nil {
		return m
	}
	out := map[ᐩK]ᐩV{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func ᐩstdmapsᐩCopy[ᐩK comparable, ᐩV any](dst, src map[ᐩK]ᐩV) {
	for k, v := range src {
		dst[k] = v
	}
}

func ᐩstdmapsᐩInsert[ᐩK comparable, ᐩV any](m map[ᐩK]ᐩV, seq func(yield func(ᐩK, ᐩV) bool)) {
	seq(func(k ᐩK, v ᐩV) bool { m[k] = v; return true })
}

func ᐩstdmapsᐩDeleteFunc[ᐩK comparable, ᐩV any](m map[ᐩK]ᐩV, del func(ᐩK, ᐩV) bool) {
	for k, v := range m {
		if del(k, v) {
			delete(m, k)
		}
	}
}

func ᐩstdmapsᐩEqual[ᐩK, ᐩV comparable](a, b map[ᐩK]ᐩV) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// ᐩK2 is ᐩK: the interpreter infers type parameters from their uses in
// the parameters' order, not by name (K, V1, K, V2 gave V2 the type of
// K: "cannot use type map[int][]uint8 as type map[int]int").
func ᐩstdmapsᐩEqualFunc[ᐩK comparable, ᐩV1 any, ᐩK2 comparable, ᐩV2 any](a map[ᐩK]ᐩV1, b map[ᐩK2]ᐩV2, eq func(ᐩV1, ᐩV2) bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[any(k).(ᐩK2)]; !ok || !eq(v, w) {
			return false
		}
	}
	return true
}
