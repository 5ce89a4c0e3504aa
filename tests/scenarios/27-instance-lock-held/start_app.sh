#!/bin/sh
# Only one instance may run: take the instance lock (waiting 1.5 s at
# most), then start the service.
cd "$(dirname "$0")"
exec flock -w 1.5 run/app.lock python3 -c 'print("voice service up")'
