// Package bridge gives the types cells declare to the native code that
// handles their values, as Go would: fmt (String, Error and Format
// methods, field names, %T, %#v; fmt.go), encoding/json (unexported fields
// left out; json.go), errors.As and errors.Is (errors.go), image.Image
// (registry.go), a self-referential value printed without recursing
// forever (bounded.go), and a cell's value rendered as display data
// (value.go).
package bridge
