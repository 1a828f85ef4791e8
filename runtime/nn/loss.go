package nn

import (
	"fmt"
	"sync"

	"github.com/tick-kernel/tick/runtime/tensor"
)

// CrossEntropy is the mean over the batch of -log softmax(logits)[label]:
// logits are [N, C] scores, labels either [N] class indices (int32, from 0
// to C-1) or [N, C] probabilities (one-hot rows, or soft labels).
func CrossEntropy(logits, labels *tensor.Tensor) *tensor.Tensor {
	ls, ys := logits.Shape(), labels.Shape()
	if len(ls) != 2 {
		fail("CrossEntropy", "logits %v: want [batch, classes]", ls)
	}
	logp := logits.LogSoftmax(-1)
	n := float64(ls[0])
	switch {
	case len(ys) == 2 && ys[0] == ls[0] && ys[1] == ls[1]:
		return logp.Mul(labels).Sum().Mul(-1 / n)
	case len(ys) == 1 && ys[0] == ls[0]:
		if labels.DType() != tensor.Int32 {
			fail("CrossEntropy", "class labels are %s: want int32 indices (Cast(tensor.Int32)), or [batch, classes] probabilities", labels.DType())
		}
		hit := labels.Unsqueeze(1).Eq(classIndex(ls[1], logits.Device()))
		return tensor.Where(hit, logp, 0).Sum().Mul(-1 / n)
	}
	fail("CrossEntropy", "labels %v do not fit logits %v: want [%d] class indices or [%d %d] probabilities", ys, ls, ls[0], ls[0], ls[1])
	return nil
}

// classIndexes caches the row [0 1 ... C-1] (int32, [1, C]) per device, so
// a loss in a training loop does not copy it to the device every step.
// Process-wide because devices are; the rows are never written.
var classIndexes sync.Map // "C@device" → *tensor.Tensor

func classIndex(c int, device string) *tensor.Tensor {
	key := fmt.Sprintf("%d@%s", c, device)
	if v, ok := classIndexes.Load(key); ok {
		return v.(*tensor.Tensor)
	}
	idx := make([]int32, c)
	for i := range idx {
		idx[i] = int32(i)
	}
	t := tensor.FromInt32s(idx, 1, c).To(device).Realize()
	v, _ := classIndexes.LoadOrStore(key, t)
	return v.(*tensor.Tensor)
}

// MSE is the mean squared error between pred and target (same shape, or
// broadcastable).
func MSE(pred, target *tensor.Tensor) *tensor.Tensor {
	d := pred.Sub(target)
	return d.Mul(d).Mean()
}

// Accuracy is the share of rows of logits whose largest score is at the
// row's label (int32 [N]). It reads the result (synchronizes).
func Accuracy(logits, labels *tensor.Tensor) float64 {
	ls, ys := logits.Shape(), labels.Shape()
	if len(ls) != 2 || len(ys) != 1 || ys[0] != ls[0] {
		fail("Accuracy", "logits %v and labels %v: want [batch, classes] and [batch]", ls, ys)
	}
	return logits.Detach().Argmax(-1).Eq(labels).Cast(tensor.Float32).Mean().Item()
}
