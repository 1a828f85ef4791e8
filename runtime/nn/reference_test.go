package nn

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/tick-kernel/tick/runtime/tensor"
)

// mlpReference is testdata/mlp_reference.json: a small MLP, its loss and
// its gradients computed with numpy and a hand-written backward pass by
// testdata/mlp_reference.py.
type mlpReference struct {
	X           [][]float64   `json:"x"`
	Labels      []int32       `json:"labels"`
	Weights     [][][]float64 `json:"weights"`
	Biases      [][]float64   `json:"biases"`
	Loss        float64       `json:"loss"`
	GradWeights [][][]float64 `json:"grad_weights"`
	GradBiases  [][]float64   `json:"grad_biases"`
	GradX       [][]float64   `json:"grad_x"`
}

func matrix(rows [][]float64) *tensor.Tensor {
	var v []float64
	for _, r := range rows {
		v = append(v, r...)
	}
	return tensor.FromFloat64s(v, len(rows), len(rows[0]))
}

func flat(rows [][]float64) []float64 {
	var v []float64
	for _, r := range rows {
		v = append(v, r...)
	}
	return v
}

func TestMLPMatchesNumpy(t *testing.T) {
	raw, err := os.ReadFile("testdata/mlp_reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref mlpReference
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	for _, dev := range tensor.AvailableBackends() {
		if dev == "NULL" || strings.HasPrefix(dev, "TEST") {
			continue
		}
		t.Run(dev, func(t *testing.T) {
			prev := tensor.DefaultDevice()
			if err := tensor.SetDefaultDevice(dev); err != nil {
				t.Fatal(err)
			}
			defer tensor.SetDefaultDevice(prev)
			var layers []*Linear
			for i := range ref.Weights {
				layers = append(layers, &Linear{Weight: matrix(ref.Weights[i]).RequiresGrad(), Bias: tensor.FromFloat64s(ref.Biases[i]).RequiresGrad()})
			}
			model := NewSequential(layers[0], ReLU(), layers[1], Tanh(), layers[2])
			x := matrix(ref.X).RequiresGrad()
			loss := CrossEntropy(model.Forward(x), tensor.FromInt32s(ref.Labels))
			loss.Backward()
			check := func(what string, got *tensor.Tensor, want []float64) {
				t.Helper()
				g := got.Float64s()
				for i := range want {
					if math.Abs(g[i]-want[i]) > 1e-12*(1+math.Abs(want[i])) {
						t.Fatalf("%s[%d] = %.17g, numpy says %.17g", what, i, g[i], want[i])
					}
				}
			}
			check("loss", loss, []float64{ref.Loss})
			for i, l := range layers {
				check("dW"+string(rune('1'+i)), l.Weight.Grad(), flat(ref.GradWeights[i]))
				check("db"+string(rune('1'+i)), l.Bias.Grad(), ref.GradBiases[i])
			}
			check("dx", x.Grad(), flat(ref.GradX))
		})
	}
}
