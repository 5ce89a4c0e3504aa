# A Python 2 service (legacy code still runs on 2.7): its imports are
# found (time and _json as extensions, json as a package), then its
# config is not.
import json
import os
import re
import subprocess
import threading
import time

CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "conf", "service.json")

try:
    with open(CONFIG) as f:
        settings = json.load(f)
except IOError as e:
    raise SystemExit("cannot start: %s" % e)
