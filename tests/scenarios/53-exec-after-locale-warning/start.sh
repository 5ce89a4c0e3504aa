#!/bin/bash
# The voice service's start script: it only hands over to the service,
# which reads its settings from the environment.
cd "$(dirname "$0")"
exec python3 app.py
