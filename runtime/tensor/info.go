package tensor

// Devices described as values, for provenance: a timing result records which
// device ran its kernels and how they were built without parsing the
// one-line Backend() text.

import "github.com/tick-kernel/tick/runtime/device"

// DeviceInfo describes a device: what runs its kernels and how they were
// built (see device.Info).
type DeviceInfo = device.Info

// Info describes the device as a value.
func (d *Dev) Info() DeviceInfo {
	i := d.dev.Info()
	i.Name = d.name
	return i
}

// DescribeDevice describes the named device (starting it, as Device does),
// or returns the *DeviceError saying why there is none.
func DescribeDevice(name string) (DeviceInfo, error) {
	d, err := LookupDevice(name)
	if err != nil {
		return DeviceInfo{}, err
	}
	return d.Info(), nil
}
