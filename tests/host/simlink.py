# The headless simulator serving its USB serial (a pseudo-terminal) for end-to-end tests of the host tools.
#
#   with SimPort(script, flash, tmp_path) as sim:   # plays the script, then serves the port
#       main(["export", "--port", sim.port, ...])
# `tafel sim --script S --flash F --stay --port-file P` runs as a child; its
# summary line on stdout says the script is done and the port is ready (no
# polling). Closing its standard input ends it. Its data folder (where it
# leaves its port file for tafel to find) is the test's own, never the user's.
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUN_PY = ROOT / "firmware" / "sim" / "run.py"


def tafel(*args):
    return [sys.executable, "-m", "tafel_host.cli", *map(str, args)]


def play(script, flash):
    """Play a key script on a flash image (headless, no serial); the summary line."""
    done = subprocess.run(tafel("sim", "--script", script, "--flash", flash), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


class SimPort:
    def __init__(self, script, flash, tmp, baud=115200, runtime=None):
        """runtime: tafel sim's --runtime (auto when None)."""
        self.port_file = Path(tmp) / ("port-%s" % Path(flash).stem)
        self.port_file.unlink(missing_ok=True)
        self.proc = subprocess.Popen(
            tafel("sim", "--script", script, "--flash", flash, "--stay", "--port-file", self.port_file,
                  "--baud", baud, *(("--runtime", runtime) if runtime else ())),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=dict(os.environ, XDG_DATA_HOME=str(Path(tmp) / "sim-data")))
        lines = []
        for line in self.proc.stdout:  # "serial: /dev/pts/N", then "tafel sim: N steps ..." once ready
            lines.append(line)
            if line.startswith("tafel sim:"):
                break
        else:
            self.close()
            raise AssertionError("the simulator ended early: %s%s" % ("".join(lines), self.proc.stderr.read()))
        self.port = self.port_file.read_text().strip()

    def kill(self):
        """Pull the plug: the device vanishes (the pseudo-terminal with it)."""
        self.proc.kill()
        self.proc.wait()

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        for stream in (self.proc.stdout, self.proc.stderr, self.proc.stdin):
            if stream and not stream.closed:
                stream.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
