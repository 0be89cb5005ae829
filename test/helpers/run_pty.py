"""Run a command in a pseudo-terminal, answer prompts, and print everything it wrote (for e2e tests).

usage: run_pty.py '<json: {"argv": [...], "env": {...}, "script": [["expect text", "send text"], ...], "timeout": 20}>'
Prints the transcript on stdout and exits with the command's exit status.
"""
import fcntl, json, os, pty, select, struct, sys, termios, time

spec = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(spec["argv"][0], spec["argv"], spec["env"])
# A real terminal has a size: rows x columns (from COLUMNS, default 100).
cols = int(spec["env"].get("COLUMNS", "100"))
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, cols, 0, 0))

transcript = b""
steps = list(spec.get("script", []))
deadline = time.time() + spec.get("timeout", 20)
searched = 0
while time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.1)
    if r:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        transcript += data
    if steps and steps[0][0].encode() in transcript[searched:]:
        searched = transcript.index(steps[0][0].encode(), searched) + len(steps[0][0])
        time.sleep(0.15)
        os.write(fd, steps[0][1].encode())
        steps.pop(0)
_, status = os.waitpid(pid, 0)
sys.stdout.write(transcript.decode("utf-8", "replace"))
sys.exit(os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status >> 8)
