package magic

import "github.com/tick-kernel/tick/display"

// sink is the display.Publisher of this package's own tests: it keeps what
// progress lines publish and update (magic_test.go, which runs cells
// through a whole session, has a recorder of its own).
type sink struct{ pub, upd []display.Data }

func (k *sink) Publish(d display.Data) { k.pub = append(k.pub, d) }
func (k *sink) Update(d display.Data)  { k.upd = append(k.upd, d) }
func (k *sink) Clear(bool)             {}

// Shown says the sink does not count its outputs (session.CellSink).
func (k *sink) Shown() int { return -1 }
