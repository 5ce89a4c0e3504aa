#!/bin/bash
# Start the voice service: pick the config, check it, list the voices,
# then serve.
set -euo pipefail
cd "$(dirname "$0")"
if [ -f config/local.yaml ]; then
	CONFIG=config/local.yaml
else
	CONFIG=config/default.yaml
fi
python3 -c 'import sys; open(sys.argv[1]).read()' "$CONFIG"
./bin/list-voices assets/voices | sort > voices.txt
echo "serving $(wc -l < voices.txt) voices on :7860"
