"""Codec loading: the real work is in the voice_codec extension."""
import voice_codec


def load_default():
    return voice_codec.open("en_US")
