package assist

import (
	"path"
	"sort"
	"strings"
)

// pkgIndex is the packages cells can import: path → package name, and the
// paths of each name, best first.
type pkgIndex struct {
	names  map[string]string
	byName map[string][]string
	paths  []string
}

func newPkgIndex(pkgs map[string]string) *pkgIndex {
	x := &pkgIndex{names: map[string]string{}, byName: map[string][]string{}}
	for p, n := range pkgs {
		if strings.Contains(p, "internal") || strings.Contains(p, "vendor/") || n == "" || n == "main" {
			continue
		}
		x.names[p] = n
		x.byName[n] = append(x.byName[n], p)
		x.paths = append(x.paths, p)
	}
	for _, ps := range x.byName {
		sort.Slice(ps, func(i, j int) bool { return pathRank(ps[i]) < pathRank(ps[j]) })
	}
	sort.Strings(x.paths)
	return x
}

// pathRank orders the packages of one name as goimports would prefer
// them: the shortest path first (math/rand before crypto/rand? no:
// fewer elements first, then alphabetically).
func pathRank(p string) string {
	return string(rune('0'+strings.Count(p, "/"))) + p
}

// name is the package name of path p, imported without a name.
func (x *pkgIndex) name(p string) string {
	if n, ok := x.names[p]; ok {
		return n
	}
	base := path.Base(p)
	if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		base = path.Base(path.Dir(p))
	}
	return strings.ReplaceAll(base, "-", "_")
}
