package data

import (
	"fmt"
	"math"
	"math/rand"
)

// Spirals is the classic classification toy (as in CS231n): classes arms
// of a spiral in the plane, perClass points each, with Gaussian noise of
// the given standard deviation on the angle, from seed. Points lie in
// [-1, 1]²; a linear model cannot separate them, a small MLP can.
func Spirals(perClass, classes int, noise float64, seed int64) *Dataset {
	if perClass <= 0 || classes <= 0 || noise < 0 {
		panic(&Error{Op: "Spirals", Msg: fmt.Sprintf("perClass %d and classes %d must be positive and noise %v ≥ 0", perClass, classes, noise)})
	}
	r := rand.New(rand.NewSource(seed))
	d := &Dataset{Name: fmt.Sprintf("spirals(%d×%d, noise %g, seed %d)", classes, perClass, noise, seed), Features: 2, Classes: classes}
	for c := range classes {
		for i := range perClass {
			rad := float64(i) / float64(max(perClass-1, 1))
			theta := float64(c)*4 + 4*rad + r.NormFloat64()*noise
			d.X = append(d.X, float32(rad*math.Sin(theta)), float32(rad*math.Cos(theta)))
			d.Y = append(d.Y, int32(c))
		}
	}
	return d
}

// Blobs is classes Gaussian clusters of perClass points in features
// dimensions: centres drawn uniformly from [-4, 4] per dimension, points
// with standard deviation spread around them, all from seed.
func Blobs(perClass, classes, features int, spread float64, seed int64) *Dataset {
	if perClass <= 0 || classes <= 0 || features <= 0 || spread < 0 {
		panic(&Error{Op: "Blobs", Msg: fmt.Sprintf("perClass %d, classes %d and features %d must be positive and spread %v ≥ 0", perClass, classes, features, spread)})
	}
	r := rand.New(rand.NewSource(seed))
	centres := make([]float64, classes*features)
	for i := range centres {
		centres[i] = 8*r.Float64() - 4
	}
	d := &Dataset{Name: fmt.Sprintf("blobs(%d×%d in %d dimensions, spread %g, seed %d)", classes, perClass, features, spread, seed), Features: features, Classes: classes}
	for c := range classes {
		for range perClass {
			for f := range features {
				d.X = append(d.X, float32(centres[c*features+f]+spread*r.NormFloat64()))
			}
			d.Y = append(d.Y, int32(c))
		}
	}
	return d
}
