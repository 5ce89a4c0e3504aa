"""The voice service's WSGI entry point, as gunicorn loads it (wsgi:app)."""
from service import create_app

app = create_app()
