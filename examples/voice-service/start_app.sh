#!/bin/bash
# Start the voice service, as its README says: bash start_app.sh
set -eu
cd "$(dirname "$0")"
export VOICE_PORT=${VOICE_PORT:-7860}
echo "starting voice service on :$VOICE_PORT"
status=0
python3 app.py || status=$?
if [ $status -ne 0 ]; then
	echo "voice service failed to start (status $status)" >&2
fi
exit $status
