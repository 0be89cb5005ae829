"""Drive an interactive shell in a pseudo-terminal: wait for each expected text, send keys, print the transcript
(escape sequences removed, so that expected texts match what is seen).

usage: pty_shell.py '<json: {"argv": [...], "env": {...}, "script": [["expect", "send"], ...], "timeout": 20}>'
The shell is killed at the end (or on timeout); exit status 0 if every expected text was seen, else 1.
"""
import json, os, pty, re, select, signal, sys, time

ANSI = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[=>]")

spec = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(spec["argv"][0], spec["argv"], spec["env"])

transcript = b""
steps = list(spec.get("script", []))
deadline = time.time() + spec.get("timeout", 20)
searched = 0
while steps and time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.05)
    if r:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        transcript += ANSI.sub(b"", data)
    expect = steps[0][0].encode()
    if expect in transcript[searched:]:
        searched = transcript.index(expect, searched) + len(expect)
        time.sleep(0.1)
        os.write(fd, steps[0][1].encode())
        steps.pop(0)
# Collect what the last keys produced, then stop the shell.
end = time.time() + 0.3
while time.time() < end:
    r, _, _ = select.select([fd], [], [], 0.05)
    if r:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        transcript += ANSI.sub(b"", data)
try:
    os.kill(pid, signal.SIGKILL)
except ProcessLookupError:
    pass
os.waitpid(pid, 0)
sys.stdout.write(transcript.decode("utf-8", "replace"))
sys.exit(1 if steps else 0)
