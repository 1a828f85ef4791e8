//go:build ignore

// gen.go writes the standard library tables of package std: `yaegi
// extract` of each package below, several at a time (extract type-checks
// its package from source, about a second of CPU each; one after the other
// they took minutes of go generate). Run by `go generate` (std.go).
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
)

// packages are the standard library packages built into the interpreter;
// std.Compiled lists the ones left out, compiled on first import.
var packages = []string{
	"bufio", "bytes", "cmp", "compress/bzip2", "compress/flate", "compress/gzip", "compress/lzw", "compress/zlib",
	"container/heap", "container/list", "container/ring", "context",
	"crypto", "crypto/aes", "crypto/cipher", "crypto/des", "crypto/dsa", "crypto/ed25519", "crypto/hmac", "crypto/md5",
	"crypto/rand", "crypto/rc4", "crypto/sha1", "crypto/sha256", "crypto/sha512", "crypto/subtle", "crypto/x509/pkix",
	"database/sql/driver", "debug/dwarf",
	"encoding", "encoding/ascii85", "encoding/asn1", "encoding/base32", "encoding/base64", "encoding/binary",
	"encoding/csv", "encoding/gob", "encoding/hex", "encoding/json", "encoding/pem", "encoding/xml",
	"errors", "flag", "fmt",
	"go/ast", "go/build", "go/build/constraint", "go/constant", "go/doc", "go/doc/comment", "go/format", "go/parser",
	"go/printer", "go/scanner", "go/token", "go/types", "go/version",
	"hash", "hash/adler32", "hash/crc32", "hash/crc64", "hash/fnv", "hash/maphash", "html",
	"image", "image/color", "image/color/palette", "image/draw", "image/gif", "image/jpeg", "image/png",
	"index/suffixarray", "io", "io/fs", "io/ioutil", "log", "log/slog",
	"maps", "math", "math/big", "math/bits", "math/cmplx", "math/rand", "math/rand/v2", "mime", "mime/quotedprintable",
	"net", "net/netip", "net/url", "os", "os/signal", "os/user", "path", "path/filepath", "reflect", "regexp", "regexp/syntax",
	"runtime", "runtime/debug", "runtime/metrics", "runtime/pprof", "runtime/trace",
	"slices", "sort", "strconv", "strings", "sync", "sync/atomic",
	"testing", "testing/iotest", "testing/quick", "text/scanner", "text/tabwriter", "text/template", "text/template/parse",
	"time", "unicode", "unicode/utf16", "unicode/utf8",
}

func main() {
	tmp, err := os.MkdirTemp("", "tick-std-gen-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(tmp)
	yaegi := filepath.Join(tmp, "yaegi")
	if out, err := exec.Command("go", "build", "-o", yaegi, "github.com/traefik/yaegi/cmd/yaegi").CombinedOutput(); err != nil {
		fail(fmt.Errorf("building yaegi: %v\n%s", err, out))
	}
	work := make(chan string)
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				if out, err := exec.Command(yaegi, "extract", "-name", "std", p).CombinedOutput(); err != nil {
					mu.Lock()
					errs = append(errs, fmt.Errorf("yaegi extract %s: %v\n%s", p, err, out))
					mu.Unlock()
				}
			}
		}()
	}
	for _, p := range packages {
		work <- p
	}
	close(work)
	wg.Wait()
	for _, err := range errs {
		fmt.Fprintln(os.Stderr, err)
	}
	if len(errs) > 0 {
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}
