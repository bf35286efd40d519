"""``fcm web``: a browser table to play one seat against bots and to replay game records.

``fcm_apps.web.app.create_app`` builds the Starlette app (needs the ``web`` extra:
starlette, uvicorn, websockets); the page itself is plain HTML / JS / CSS in ``static/``.
docs/web.md describes the page, the websocket messages and the hidden-information guarantee.
"""
