"""The JSON API under ``/api/``: one router per subject, each answering from read models."""
