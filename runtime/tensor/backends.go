package tensor

// The backends every program that imports this package gets, as cells
// do: they register themselves with package device from their init.
import (
	_ "github.com/tick-kernel/tick/runtime/backend/cl"
	_ "github.com/tick-kernel/tick/runtime/backend/cpu"
	_ "github.com/tick-kernel/tick/runtime/backend/gobackend"
	_ "github.com/tick-kernel/tick/runtime/backend/null"
)
