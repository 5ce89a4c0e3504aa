#!/bin/bash
# Start the voice web UI the way its README says: bash start_app.sh
set -eu
cd "$(dirname "$0")"
export VOICE_PORT=7860
status=0
python3 app.py --port "$VOICE_PORT" || status=$?
echo "voice service stopped (status $status)" >&2
exit $status
