"""A service that loads a native plugin the installer unpacked into a
scratch directory: ctypes.CDLL, that is dlopen."""
import ctypes
import sys

plugin = ctypes.CDLL(sys.argv[1])
print("plugin loaded", plugin)
