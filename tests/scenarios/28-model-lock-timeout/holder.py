# Another worker warming the model cache: holds its lock a long time.
import fcntl
import os
import sys
import time

f = open(sys.argv[1], "w")
fcntl.lockf(f, fcntl.LOCK_EX)
with open(sys.argv[1] + ".held", "w") as h:
    h.write("held\n")
time.sleep(60)
