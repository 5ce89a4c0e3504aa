"""Voice service entry point; its codec package was never installed."""
import json
import os
import sys

import voice_codec


def main():
    codec = voice_codec.open(os.environ.get("VOICE", "en_US"))
    json.dump({"codec": codec.name}, sys.stdout)


if __name__ == "__main__":
    main()
