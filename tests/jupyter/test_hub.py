"""tick on Debian's JupyterHub (3.0): a system-wide kernelspec, a real
system user, the local process spawner.

The test installs tick as an administrator would (a binary outside any
user's home and `tick install --prefix` into a shared data directory that
the Hub puts on JUPYTER_PATH), starts JupyterHub on 127.0.0.1 with the
DummyAuthenticator, logs a user in through the REST API (a token for
username + password), starts their single-user server, runs a tick cell
through the server's kernel websocket, and checks its output: it runs as
that user, with that user's home and caches. Everything (Hub, proxy, the
user's server and kernel, the system user, the files) is removed after.

As root the user is a real one (useradd) and the spawner is
LocalProcessSpawner, as on a real Hub; otherwise SimpleLocalProcessSpawner
runs the server as the current user."""
import asyncio
import json
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
import unittest
import urllib.error
import urllib.request
import uuid

from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

from test_notebook_server import Channels, free_port, stream_text
from tickenv import TIMEOUT, wait_until

HUB = shutil.which("jupyterhub")
TICK_BIN = os.environ.get("TICK_BIN", "")
PASSWORD = "tick-hub-test"
SPEC = "tick-hub"


class HubChannels(Channels):
    """Channels to a kernel of a user's server, reached through the Hub's proxy."""

    def __init__(self, loop, hub, user, token, kernel_id):
        self.loop = loop
        self.session = uuid.uuid4().hex
        url = (f"ws://127.0.0.1:{hub.port}/user/{user}/api/kernels/{kernel_id}/channels"
               f"?session_id={self.session}")
        req = HTTPRequest(url, headers={"Authorization": f"token {token}"})
        self.conn = self.sync(lambda: websocket_connect(req))
        self.closed = False
        self.seen = []


class Hub:
    """One JupyterHub process (with its configurable-http-proxy) whose
    state lives under root."""

    def __init__(self, root, user, real_user, jupyter_path):
        self.root, self.user = root, user
        self.port, self.hub_port, self.api_port = free_port(), free_port(), free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        hub_dir = os.path.join(root, "hub")
        os.makedirs(hub_dir)
        spawner = "jupyterhub.spawner.LocalProcessSpawner" if real_user else "jupyterhub.spawner.SimpleLocalProcessSpawner"
        config = f"""
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {self.port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {self.hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{self.api_port}"
c.ConfigurableHTTPProxy.pid_file = {os.path.join(hub_dir, "proxy.pid")!r}
c.JupyterHub.db_url = "sqlite:///" + {os.path.join(hub_dir, "jupyterhub.sqlite")!r}
c.JupyterHub.cookie_secret_file = {os.path.join(hub_dir, "cookie_secret")!r}
c.JupyterHub.pid_file = {os.path.join(hub_dir, "hub.pid")!r}
c.JupyterHub.cleanup_servers = True
c.JupyterHub.authenticator_class = "jupyterhub.auth.DummyAuthenticator"
c.DummyAuthenticator.password = {PASSWORD!r}
c.Authenticator.allowed_users = {{{user!r}}}
c.JupyterHub.spawner_class = {spawner!r}
c.Spawner.cmd = ["jupyterhub-singleuser"]
c.Spawner.start_timeout = 60
c.Spawner.http_timeout = 60
# The system-wide kernelspec: an administrator would use `tick install
# --system` (/usr/local/share/jupyter, searched by default); the test keeps
# the machine clean and names its shared directory on JUPYTER_PATH.
c.Spawner.environment = {{"JUPYTER_PATH": {jupyter_path!r}}}
"""
        if not real_user:
            config += f"c.SimpleLocalProcessSpawner.home_dir_template = {os.path.join(root, 'home', '{username}')!r}\n"
        self.config = os.path.join(hub_dir, "jupyterhub_config.py")
        with open(self.config, "w") as f:
            f.write(config)
        self.log_path = os.path.join(hub_dir, "hub.log")
        self.proc = None

    def start(self):
        self.log = open(self.log_path, "wb")
        # Debian's configurable-http-proxy finds its node modules in
        # /usr/share/nodejs, which a node from elsewhere (NodeSource) does
        # not search.
        node_path = os.pathsep.join(p for p in [os.environ.get("NODE_PATH"), "/usr/share/nodejs", "/usr/lib/nodejs"] if p)
        env = dict(os.environ, NODE_PATH=node_path)
        self.proc = subprocess.Popen([HUB, "-f", self.config], cwd=os.path.dirname(self.config), env=env,
                                     stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        wait_until(self.ready, timeout=60, what=f"JupyterHub on port {self.port} ({self.log_path})")

    def ready(self):
        if self.proc.poll() is not None:
            raise AssertionError(f"JupyterHub exited at start:\n{self.log_text()}")
        try:
            return self.request("GET", "/hub/api/", timeout=1) is not None
        except (urllib.error.URLError, ConnectionError, OSError):
            return False

    def log_text(self):
        with open(self.log_path, "rb") as f:
            return f.read().decode(errors="replace")[-6000:]

    def request(self, method, path, body=None, token=None, timeout=TIMEOUT):
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"token {token}"
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        with urllib.request.urlopen(req, timeout=timeout) as r:
            raw = r.read()
        return json.loads(raw) if raw else {}

    def stop(self):
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # stops the proxy and (cleanup_servers) the servers
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()


def processes_of(uid):
    """Pids of the processes owned by uid."""
    pids = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                if os.stat(f"/proc/{d}").st_uid == uid:
                    pids.append(int(d))
            except OSError:
                pass
    return pids


@unittest.skipUnless(HUB and shutil.which("configurable-http-proxy"),
                     "Debian's jupyterhub is not installed (scripts/install-deps.sh installs it)")
@unittest.skipUnless(TICK_BIN, "TICK_BIN names the tick binary (test.sh sets it)")
class HubTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.root = tempfile.mkdtemp(prefix="tick-hub-")
        os.chmod(cls.root, 0o755)
        cls.real_user = os.geteuid() == 0 and shutil.which("useradd") is not None
        cls.user = f"tickhub{os.getpid() % 100000}"
        cls.hub = None
        cls.created_user = False
        try:
            cls.setUpHub()
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def setUpHub(cls):
        # The administrator's install: a shared binary, a shared kernelspec.
        bindir = os.path.join(cls.root, "opt", "bin")
        os.makedirs(bindir)
        tick = os.path.join(bindir, "tick")
        shutil.copy2(TICK_BIN, tick)
        os.chmod(tick, 0o755)
        prefix = os.path.join(cls.root, "opt")
        out = subprocess.run([tick, "install", "--prefix", prefix, "--name", SPEC, "--display-name", "Go (tick on the Hub)"],
                             capture_output=True, text=True, check=True).stdout
        cls.install_message = out
        jupyter_path = os.path.join(prefix, "share", "jupyter")
        home = os.path.join(cls.root, "home", cls.user)
        os.makedirs(os.path.dirname(home))
        os.chmod(os.path.dirname(home), 0o755)
        if cls.real_user:
            subprocess.run(["useradd", "--create-home", "--home-dir", home, "--shell", "/bin/sh", cls.user],
                           check=True, capture_output=True)
            cls.created_user = True
            cls.uid = pwd.getpwnam(cls.user).pw_uid
        else:
            cls.uid = os.getuid()
        cls.home = home
        cls.hub = Hub(cls.root, cls.user, cls.real_user, jupyter_path)
        cls.hub.start()

    @classmethod
    def tearDownClass(cls):
        if cls.hub is not None:
            try:
                cls.hub.request("DELETE", f"/hub/api/users/{cls.user}/server", token=getattr(cls, "token", None), timeout=10)
            except Exception:
                pass
            cls.hub.stop()
        if cls.created_user:
            # Whatever the user still runs (a leaked kernel) goes first.
            for pid in processes_of(cls.uid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            subprocess.run(["userdel", "--remove", cls.user], capture_output=True)
        shutil.rmtree(cls.root, ignore_errors=True)

    def test_cell_on_the_hub(self):
        hub, user = self.hub, self.user
        self.assertIn("does not search", self.install_message, "tick install --prefix should say JUPYTER_PATH must name it")
        # Log in through the REST API: a token for username + password.
        tok = hub.request("POST", f"/hub/api/users/{user}/tokens",
                          {"auth": {"username": user, "password": PASSWORD}, "note": "tick hub test"})
        token = type(self).token = tok["token"]
        with self.assertRaises(urllib.error.HTTPError, msg="a wrong password must not give a token"):
            hub.request("POST", f"/hub/api/users/{user}/tokens", {"auth": {"username": user, "password": "wrong"}})
        # Start the user's server and wait until the Hub says it is ready.
        try:
            hub.request("POST", f"/hub/api/users/{user}/server", {}, token=token)
        except urllib.error.HTTPError as e:
            self.fail(f"starting the server: {e} {e.read()!r}\n{hub.log_text()}")
        def ready():
            model = hub.request("GET", f"/hub/api/users/{user}", token=token, timeout=5)
            return model.get("servers", {}).get("", {}).get("ready")
        wait_until(ready, timeout=90, interval=0.3, what=f"{user}'s server ({hub.log_path})")
        base = f"/user/{user}/api"
        specs = hub.request("GET", base + "/kernelspecs", token=token)
        self.assertIn(SPEC, specs["kernelspecs"], f"the user's server does not offer {SPEC}: {list(specs['kernelspecs'])}")
        self.assertEqual(specs["kernelspecs"][SPEC]["spec"]["display_name"], "Go (tick on the Hub)")
        kernel = hub.request("POST", base + "/kernels", {"name": SPEC}, token=token)
        loop = asyncio.new_event_loop()
        ch = None
        try:
            try:
                ch = HubChannels(loop, hub, user, token, kernel["id"])
            except Exception as e:
                self.fail(f"the kernel's websocket through the Hub did not open: {e!r}\n{hub.log_text()}")
            ch.wait_ready(timeout=60)
            code = ('import (\n\t"fmt"\n\t"os"\n)\n'
                    'cache, _ := os.UserCacheDir()\n'
                    'fmt.Println("hello from the hub", os.Getuid(), os.Getenv("HOME"), cache)')
            reply, outs = ch.execute(code, timeout=60)
            self.assertEqual(reply["content"]["status"], "ok", outs)
            words = stream_text(outs).split()
            self.assertEqual(words[:3], ["hello", "from", "the"], outs)
            self.assertEqual(words[3:5], ["hub", str(self.uid)], "the kernel must run as the Hub's user")
            if self.real_user:
                self.assertEqual(words[5], self.home, "the kernel's HOME is the user's")
                self.assertTrue(words[6].startswith(self.home + "/"), f"per-user cache {words[6]} is not under {self.home}")
            # The interpreter's state lives across cells, as in any notebook.
            reply, outs = ch.execute('n := 6 * 7\nfmt.Println("n =", n)')
            self.assertEqual(stream_text(outs), "n = 42\n")
        finally:
            if ch is not None:
                ch.close()
            loop.close()
        hub.request("DELETE", f"{base}/kernels/{kernel['id']}", token=token)
        hub.request("DELETE", f"/hub/api/users/{user}/server", token=token)
        wait_until(lambda: not hub.request("GET", f"/hub/api/users/{user}", token=token, timeout=5)
                   .get("servers", {}).get(""), timeout=30, interval=0.3, what="the server to stop")


if __name__ == "__main__":
    unittest.main()
