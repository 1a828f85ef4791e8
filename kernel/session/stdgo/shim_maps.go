// Interpreted in every session (see stdgo.go): the generic functions of
// package maps; its iterators are functions taking a yield callback.

package stdgo

func ᐩstdmapsᐩKeys[K comparable, V any](m map[K]V) func(yield func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func ᐩstdmapsᐩValues[K comparable, V any](m map[K]V) func(yield func(V) bool) {
	return func(yield func(V) bool) {
		for _, v := range m {
			if !yield(v) {
				return
			}
		}
	}
}

func ᐩstdmapsᐩAll[K comparable, V any](m map[K]V) func(yield func(K, V) bool) {
	return func(yield func(K, V) bool) {
		for k, v := range m {
			if !yield(k, v) {
				return
			}
		}
	}
}

func ᐩstdmapsᐩCollect[K comparable, V any](seq func(yield func(K, V) bool)) map[K]V {
	out := map[K]V{}
	seq(func(k K, v V) bool { out[k] = v; return true })
	return out
}

func ᐩstdmapsᐩClone[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return m
	}
	out := map[K]V{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func ᐩstdmapsᐩCopy[K comparable, V any](dst, src map[K]V) {
	for k, v := range src {
		dst[k] = v
	}
}

func ᐩstdmapsᐩDeleteFunc[K comparable, V any](m map[K]V, del func(K, V) bool) {
	for k, v := range m {
		if del(k, v) {
			delete(m, k)
		}
	}
}

func ᐩstdmapsᐩEqual[K, V comparable](a, b map[K]V) bool {
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

func ᐩstdmapsᐩEqualFunc[K comparable, V1, V2 any](a map[K]V1, b map[K]V2, eq func(V1, V2) bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !eq(v, w) {
			return false
		}
	}
	return true
}
