#!/bin/bash
# The service's launcher: it checks its settings before starting Python.
if [ -z "${MODEL_DIR:-}" ]; then
	echo "start_app.sh: MODEL_DIR is not set; export it to the weights directory" >&2
	exit 64
fi
exec python3 -c 'print("serving")'
