// Package job runs a shell command as a job: its own process group and,
// on Linux, cgroups made for it (one that lists every process it makes,
// even those that leave the group, and one under the pids limit the
// kernel is in, whose own limit keeps room for the kernel). The `!`
// command and the script magics of package magic run their commands with
// it: the cell waits until the job is empty (Alive), and an interrupt
// kills it until it is (End), saying how many processes that ended.
//
// CgroupEnv set to "off" keeps commands out of cgroups.
package job
