# A service that reads its configuration at start-up.
import json
import sys

with open(sys.argv[1]) as f:
    conf = json.load(f)
print("listening on", conf["port"])
