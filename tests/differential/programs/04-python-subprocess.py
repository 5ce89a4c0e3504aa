# Python's subprocess: run children with pipes (input and captured output),
# a failing child, and a program that does not exist.
import subprocess
import sys

r = subprocess.run(["sort"], input=b"pear\napple\nfig\n", stdout=subprocess.PIPE)
assert r.stdout == b"apple\nfig\npear\n", r.stdout

r = subprocess.run(["sh", "-c", "echo out; exit 3"], stdout=subprocess.PIPE)
assert r.returncode == 3 and r.stdout == b"out\n", r

r = subprocess.run(["cat", "/nonexistent"], stderr=subprocess.DEVNULL)
assert r.returncode != 0

try:
    subprocess.run(["/nonexistent/program"])
except FileNotFoundError:
    pass

out = subprocess.check_output([sys.executable, "-c", "print(6 * 7)"])
assert out == b"42\n", out
print("ok")
