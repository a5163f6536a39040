# SPDX-License-Identifier: GPL-2.0-only
# The control protocol of perpkt serve (src/workload/control.h and
# control-auth.h) for tests that script a client: the hello, then every
# line sealed with HMAC-SHA-512-256 (libsodium's crypto_auth) of
# "perpkt-serve 2 SENDER SEQ CLIENT-NONCE SERVE-NONCE\n" LINE.
import hashlib, hmac, os, socket

VERSION = 2


def load_key(path):
    return bytes.fromhex(open(path).read().strip())


def mac(key, sender, seq, nonces, line):
    head = "perpkt-serve %d %s %d %s %s\n" % (VERSION, sender, seq, nonces[0], nonces[1])
    return hmac.new(key, (head + line).encode(), hashlib.sha512).digest()[:32].hex()


class Control:
    """A client of perpkt serve; key None: one that does not hold it."""

    def __init__(self, addr, port, key=None, timeout=5):
        self.sock = socket.create_connection((addr, port), timeout=timeout)
        self.f = self.sock.makefile("rwb")
        self.key = key or os.urandom(32)
        self.nonces = [os.urandom(32).hex(), None]
        self.seq = [0, 0]

    def raw(self, line):
        self.f.write((line + "\n").encode())
        self.f.flush()

    def readline(self):
        return self.f.readline().decode().rstrip("\r\n")

    def hello(self):
        self.raw("perpkt-serve %d hello nonce=%s" % (VERSION, self.nonces[0]))
        ans = self.readline()
        if ans.startswith("ok "):
            self.nonces[1] = dict(w.split("=", 1) for w in ans.split()[1:])["nonce"]
        return ans

    def send(self, line):
        self.raw(line + " mac=" + mac(self.key, "client", self.seq[0], self.nonces, line))
        self.seq[0] += 1

    def recv(self):
        """The next answer without its mac; 'UNSEALED ...' when it had none,
        'FORGED ...' when its mac is wrong."""
        line = self.readline()
        body, sep, m = line.rpartition(" mac=")
        if not sep:
            return "UNSEALED " + line
        if m != mac(self.key, "serve", self.seq[1], self.nonces, body):
            return "FORGED " + line
        self.seq[1] += 1
        return body

    def ask(self, line):
        self.send(line)
        return self.recv()

    def read_bytes(self, n):
        return self.f.read(n)

    def rest(self):
        """Everything serve sends until it closes."""
        try:
            return self.f.read().decode(errors="replace")
        except (socket.timeout, ConnectionResetError):
            return ""

    def close(self):
        self.f.close()
        self.sock.close()


def setup(transport="udp", size=40, cpu=-1, extra=""):
    return ("perpkt-serve %d transport=%s size=%d cpu=%d user=test host=test "
            "warmup_ms=0 window_ms=0%s" % (VERSION, transport, size, cpu,
                                           " " + extra if extra else ""))
