package diagnose

import (
	"strings"
	"testing"
)

func TestGoFramesLeaveOutKernelMachinery(t *testing.T) {
	stack := `goroutine 7 [running]:
tick/runtime/tensor.(*Tensor).Add(0x0?, {0x116c380?, 0x397d41188cc8?})
	/work/main/runtime/tensor/ops.go:155 +0x4d
github.com/traefik/yaegi/interp.call.func9()
	/go/pkg/mod/github.com/traefik/yaegi@v0.16.1/interp/run.go:1 +0x1
tick/kernel.(*lazyRunner).Execute(0x397d413107c0, {0x120cf70, 0x397d4130c460})
	/work/main/kernel/lazy.go:42 +0x1
tick/kernel.(*Service).execute(0x397d411fe630, {0x120ce58, 0x397d4152af60}, 0x397d4138c160)
	/work/main/kernel/execute.go:60 +0x1
main.main()
	/work/main/cmd/tick/main.go:20 +0x1
`
	got := strings.Join(GoFrames([]byte(stack)), "\n")
	if !strings.Contains(got, "tensor.(*Tensor).Add") || !strings.Contains(got, "ops.go:155") {
		t.Errorf("the native frame of user code is missing:\n%s", got)
	}
	for _, bad := range []string{"lazyRunner", "Service", "yaegi", "main.main"} {
		if strings.Contains(got, bad) {
			t.Errorf("frames show machinery %q:\n%s", bad, got)
		}
	}
}
