package cl

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tick-kernel/tick/runtime/device"
	"github.com/tick-kernel/tick/runtime/ir"
	"github.com/tick-kernel/tick/runtime/native"
	"github.com/tick-kernel/tick/runtime/render"
)

// Program is a built OpenCL kernel with the grid chosen for it.
type Program struct {
	name   string
	src    string
	prog   handle
	kernel handle
	dims   device.Dims
	origin device.Origin
}

// Dims is the grid chosen for the kernel (recorded in plans and DEBUG).
func (p *Program) Dims() device.Dims { return p.dims }

// Source is the OpenCL C.
func (p *Program) Source() string { return p.src }

// CacheOrigin says whether the driver compiled the kernel or its binary
// came from the disk cache.
func (p *Program) CacheOrigin() device.Origin { return p.origin }

// Render is the OpenCL C the device would build for k.
func (d *Device) Render(k *ir.Kernel) (string, error) {
	return d.renderer().Render(k, symbol(k)).Source, nil
}

// envMatmul overrides the matmul kernel: "blocked" (register-blocked, the
// shape for a device on the host's CPUs such as pocl) or "tiled" (16×16
// tiles through local memory, a GPU's shape). Unset (or anything else),
// the device's kind decides: blocked on a CPU device (CL_DEVICE_TYPE_CPU),
// tiles on any other (docs/benchmarks.md, OpenCL: on pocl the tiles run
// about 1% of the CPU device's matmul, the blocked kernel 0.7–0.9×).
const envMatmul = "TICK_CL_MATMUL"

// blockedMatmul reports whether matmul kernels are register-blocked:
// $TICK_CL_MATMUL if it says, else whether the device runs on the host's
// CPUs.
func (d *Device) blockedMatmul() bool {
	switch os.Getenv(envMatmul) {
	case "blocked":
		return true
	case "tiled":
		return false
	}
	return d.f.kind == "cpu"
}

// renderer renders for this device: the matmul kernel blockedMatmul picks
// (the kernel's first comment line names it; plans and DEBUG=4 show it),
// fusing multiply-adds where the device has FMA, unless TICK_FMA=0.
func (d *Device) renderer() render.OpenCL {
	return render.OpenCL{CPU: d.blockedMatmul(), FMA: d.fused()}
}

// symbol is k's kernel function name (render.Symbol: C identifier
// characters).
func symbol(k *ir.Kernel) string { return render.Symbol(k) }

// Compile renders k as OpenCL C, builds it (or loads its binary from the
// disk cache) and chooses its work-group size.
func (d *Device) Compile(k *ir.Kernel) (prog device.Program, err error) {
	defer func() { // a renderer bug is an error on this kernel, never a crash
		if r := recover(); r != nil {
			prog, err = nil, fmt.Errorf("rendering %s as OpenCL C: %v (please report this kernel: run with DEBUG=3)", k.Name, r)
		}
	}()
	ck := d.renderer().Render(k, symbol(k))
	if ck.F64 && !d.f.fp64 {
		return nil, fmt.Errorf("%s (%s) has no float64 (cl_khr_fp64): cast to float32 first, or use another device", d.name(), d.f.name)
	}
	p, origin, err := d.progs.build(d, ck.Source)
	if err != nil {
		var be *BuildError
		if asBuild(err, &be) {
			return nil, &device.SourceError{Err: err, Source: ck.Source}
		}
		return nil, err
	}
	kern, err := createKernel(p, ck.Name)
	if err != nil {
		return nil, err
	}
	out := &Program{name: ck.Name, src: ck.Source, prog: p, kernel: kern, origin: origin}
	if ck.Fixed {
		out.dims = device.Dims{Global: ck.Global, Local: ck.Local}
	} else {
		maxWG, _ := kernelWorkGroup(kern, d.f.dev)
		local := d.localSize(ck.Items, maxWG)
		out.dims = device.Dims{Global: [3]int{(ck.Items + local - 1) / local * local, 1, 1}, Local: [3]int{local, 1, 1}}
	}
	return out, nil
}

func asBuild(err error, be **BuildError) bool {
	b, ok := err.(*BuildError)
	*be = b
	return ok
}

// localSize chooses a one-dimensional work group for items work items: a
// power of two up to 256 (and the kernel's limit), small enough that every
// compute unit gets a group when there are few items.
func (d *Device) localSize(items, maxWG int) int {
	limit := 256
	if maxWG > 0 {
		limit = min(limit, maxWG)
	}
	per := (items + max(d.f.units, 1) - 1) / max(d.f.units, 1)
	n := min(limit, max(per, 1))
	return 1 << (bits.Len(uint(n)) - 1)
}

// programCache keeps built programs by source for the process and their
// binaries on disk, per device and driver version, under the C kernel
// cache's rules (native.TrustedCacheDir: a directory only this user can
// write; entries sealed with a checksum, rebuilt when corrupt).
type programCache struct {
	mu      sync.Mutex
	built   map[string]handle // by key
	dir     string            // "" when there is no usable directory
	problem error             // why the shared directory was refused, if it was
	ident   string            // the device and driver identity in every key
}

func newProgramCache(f found) *programCache {
	c := &programCache{built: map[string]handle{}}
	c.ident = strings.Join([]string{f.platName, f.platVersion, f.name, f.vendor, f.driver, f.version}, "\x00")
	sum := sha256.Sum256([]byte(c.ident))
	dir, err := native.TrustedCacheDir(filepath.Join("opencl", hex.EncodeToString(sum[:8])))
	c.dir, c.problem = dir, err
	return c
}

// build returns the program for src, from memory, from a cached binary or
// compiled by the driver (whose binary it then caches).
func (c *programCache) build(d *Device, src string) (handle, device.Origin, error) {
	sum := sha256.Sum256([]byte(c.ident + "\x00" + d.opts + "\x00" + src))
	key := hex.EncodeToString(sum[:16])
	c.mu.Lock()
	p := c.built[key]
	c.mu.Unlock()
	if p != nil {
		return p, device.DiskCache, nil // built by this process already: no compile ran
	}
	path := filepath.Join(c.dir, key+".bin")
	if bin, ok := native.ReadSealed(path); ok && c.dir != "" && len(bin) > 0 {
		if p, err := build(d.ctx, d.f.dev, "", bin, d.opts); err == nil {
			c.store(key, p)
			return p, device.DiskCache, nil
		}
	}
	p, err := build(d.ctx, d.f.dev, src, nil, d.opts)
	if err != nil {
		return nil, "", err
	}
	c.store(key, p)
	if bin := binary(p); c.dir != "" && len(bin) > 0 {
		_ = native.WriteSealed(c.dir, key+".bin", bin) // a cache that cannot be written only costs the next compile
	}
	return p, device.Compiled, nil
}

func (c *programCache) store(key string, p handle) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.built[key] = p
}
