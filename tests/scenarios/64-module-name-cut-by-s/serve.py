"""A TTS service whose engine was never installed into this Python."""
import json
import os
import sys

import sonic_tts_engine

print(json.dumps({"engine": sonic_tts_engine.__name__, "pid": os.getpid()}), file=sys.stderr)
