"""The voice service: its codec package was never installed in this venv."""
from service.codecs import load_default


def create_app():
    codec = load_default()

    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [codec.name.encode()]

    return app
