# The service: runs the fetcher with a time-out, and gives up when it
# takes too long.
import subprocess
import sys

try:
    subprocess.run([sys.executable, "fetch_weights.py"], timeout=1.5, check=True)
except subprocess.TimeoutExpired:
    print("service: model fetch timed out, giving up", file=sys.stderr)
    sys.exit(1)
