package session

// GoVersion is the Go that cells speak: yaegi v0.16's language and
// standard library are Go 1.22's (the session bridges some later
// builtins, such as min and max, and range over integers). kernel_info's
// language_info.version reports it; compiled cells (%%go) are Go of the
// toolchain tick was built with, runtime.Version().
const GoVersion = "1.22"
