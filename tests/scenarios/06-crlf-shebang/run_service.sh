#!/bin/bash
# What the service manager runs: go to the app and start it.
set -eu
cd "$(dirname "$0")"
echo "launching voice service"
./start_app.sh --port 7860
