"""Cgroups the tests create to put a kernel under a limit (a memory limit,
a pids limit), and a kernelspec that starts tick inside them.

Creating a cgroup needs root or a delegated subtree; without one the
tests that need it are skipped with the reason. v2 is used where its
controller is enabled for children of this process's cgroup, else v1."""
import json
import os
import shutil
import tempfile
import unittest
import uuid

TICK_BIN = os.environ.get("TICK_BIN", "")


def _mounts():
    out = []
    with open("/proc/self/mountinfo") as f:
        for line in f:
            pre, _, post = line.partition(" - ")
            a, b = pre.split(), post.split()
            if len(a) >= 5 and len(b) >= 3 and b[0] in ("cgroup", "cgroup2"):
                out.append((a[3], a[4], b[0], b[2].split(",")))
    return out


def _own(controller):
    """This process's cgroup directory for controller ("" for v2)."""
    paths = {}
    with open("/proc/self/cgroup") as f:
        for line in f:
            hid, ctrls, path = line.rstrip("\n").split(":", 2)
            if hid == "0" and ctrls == "":
                paths[""] = path
            for c in ctrls.split(","):
                if c:
                    paths[c] = path
    if controller not in paths:
        return None
    for root, point, fstype, opts in _mounts():
        if (controller == "" and fstype == "cgroup2") or (controller and fstype == "cgroup" and controller in opts):
            rel = paths[controller]
            if root != "/":
                rel = rel[len(root):] if rel.startswith(root) else "/"
            return os.path.normpath(point + "/" + rel)
    return None


class Cgroup:
    """A child cgroup of this process's own, removed by close()."""

    def __init__(self, controller, files):
        name = "tick-test-" + uuid.uuid4().hex[:8]
        self.dir = None
        v2 = _own("")
        if v2 and os.path.exists(os.path.join(v2, "cgroup.subtree_control")):
            with open(os.path.join(v2, "cgroup.subtree_control")) as f:
                if controller in f.read().split():
                    self.dir, self.version = os.path.join(v2, name), 2
        if self.dir is None:
            v1 = _own(controller)
            if v1 is None:
                raise unittest.SkipTest(f"no {controller} cgroup controller here")
            self.dir, self.version = os.path.join(v1, name), 1
        try:
            os.mkdir(self.dir)
        except OSError as e:
            raise unittest.SkipTest(f"cannot create a cgroup ({e}): needs root or a delegated cgroup")
        for fname, value in files(self.version).items():
            with open(os.path.join(self.dir, fname), "w") as f:
                f.write(str(value))

    @property
    def procs(self):
        return os.path.join(self.dir, "cgroup.procs")

    def pids(self):
        """The processes of the cgroup and of the cgroups under it."""
        out = []
        for d, _, _ in os.walk(self.dir):
            try:
                with open(os.path.join(d, "cgroup.procs")) as f:
                    out += [int(p) for p in f.read().split()]
            except OSError:
                pass
        return out

    def close(self):
        """Remove the cgroup and any left under it (deepest first)."""
        import time
        for _ in range(100):
            for d, _, _ in sorted(os.walk(self.dir), key=lambda w: -len(w[0])):
                try:
                    os.rmdir(d)
                except OSError:
                    pass
            if not os.path.exists(self.dir):
                return
            time.sleep(0.05)


def memory_cgroup(limit):
    return Cgroup("memory", lambda v: {"memory.max": limit} if v == 2 else {"memory.limit_in_bytes": limit})


def pids_cgroup(limit):
    return Cgroup("pids", lambda v: {"pids.max": limit})


def kernel_in(cgroups, env=None):
    """A kernelspec (in a fresh directory put first on JUPYTER_PATH) whose
    kernel process enters the cgroups before it starts tick; returns its
    name and a function that removes it."""
    if not TICK_BIN:
        raise unittest.SkipTest("TICK_BIN names the tick binary (test.sh sets it)")
    name = "tick-cg-" + uuid.uuid4().hex[:8]
    top = tempfile.mkdtemp(dir=os.environ.get("TICK_TMP"))
    spec_dir = os.path.join(top, "kernels", name)
    os.makedirs(spec_dir)
    enter = "".join(f'echo $$ > "{cg.procs}" && ' for cg in cgroups)
    spec = {"argv": ["/bin/sh", "-c", enter + 'exec "$0" kernel "$1"', TICK_BIN, "{connection_file}"],
            "display_name": "tick in a cgroup", "language": "go", "interrupt_mode": "message", "env": env or {}}
    with open(os.path.join(spec_dir, "kernel.json"), "w") as f:
        json.dump(spec, f)
    old = os.environ.get("JUPYTER_PATH")
    os.environ["JUPYTER_PATH"] = top + (os.pathsep + old if old else "")

    def remove():
        if old is None:
            os.environ.pop("JUPYTER_PATH", None)
        else:
            os.environ["JUPYTER_PATH"] = old
        shutil.rmtree(top, ignore_errors=True)
    return name, remove
