#!/bin/sh
# Start the service from its current release, with its data directory
# found among the usual places (the first that exists wins).
for d in /srv/voice-data /var/lib/voice-data "$APP_HOME/data"; do
	cd "$d" 2>/dev/null && break
done
DATA_DIR=$(pwd)
export DATA_DIR
cd "$APP_HOME/releases/current" || exit 2
exec ./bin/voice-service
