"""The web: a JSON API and a server-rendered console in one FastAPI app (``app.create_app``)."""
