# A service that starts, does its start-up work and reports it: nothing
# wrong with it. What its start-up costs is start-stop-daemon's loop.
import json
import os

with open("config.json", "w") as f:
    json.dump({"workers": 2, "port": 0}, f)
with open("config.json") as f:
    conf = json.load(f)
with open("ready", "w") as f:
    f.write("%d workers, pid %d\n" % (conf["workers"], os.getpid()))
