"""Store freshly downloaded weights in the model cache."""
import os
import sys

CACHE = "cache_hub"


def main():
    weights = b"PK\x03\x04" + bytes(4092)  # what the download produced
    os.makedirs(CACHE, exist_ok=True)
    path = os.path.join(CACHE, "model.pth")
    try:
        with open(path, "wb") as f:
            f.write(weights)
    except OSError as e:
        print("cannot write model cache: %s" % e, file=sys.stderr)
        return 1
    print("cached %s" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
