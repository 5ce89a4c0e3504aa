# The voice service needs its model directory from the environment, and
# says so in its own words when it is not set (sys.exit with a message:
# that line on stderr, exit status 1).
import os
import sys

model_dir = os.environ.get("MODEL_DIR")
if not model_dir:
    sys.exit("voice: MODEL_DIR is not set")
print("models in", model_dir)
