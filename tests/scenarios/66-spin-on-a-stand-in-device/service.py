# The service: starts the sensor reader with a 1.5 s time-out, and gives
# up when it takes too long.
import subprocess
import sys

try:
    subprocess.run([sys.executable, "reader.py"], timeout=1.5, check=True)
except subprocess.TimeoutExpired:
    print("service: sensor reader timed out, giving up", file=sys.stderr)
    sys.exit(1)
