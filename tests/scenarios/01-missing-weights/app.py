"""Voice service start-up.  On a new machine the model cache is empty."""
import os
import sys

CACHE = "cache_hub"
WEIGHTS = os.path.join(CACHE, "model_v23.pth")


def load_config(path):
    with open(path, encoding="utf-8") as f:
        return dict(line.split(": ", 1) for line in f.read().splitlines() if ": " in line)


def load_model(path):
    with open(path, "rb") as f:
        magic = f.read(8)
    if not magic.startswith(b"PK"):
        raise ValueError("%s is not a torch checkpoint" % path)


def main():
    config = load_config("config.yaml")
    print("voice service: sample rate %s, loading %s" % (config["sample_rate"], WEIGHTS), flush=True)
    try:
        load_model(WEIGHTS)
    except (OSError, ValueError) as e:
        print("model load failed: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
