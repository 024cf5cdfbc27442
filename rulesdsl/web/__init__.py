"""`rulesdsl serve`: a table in the browser for any game written in the language.

The server (server.py, Starlette on uvicorn) makes games from the lobby's checked
requests (lobby.py) and keeps each as a Room (rooms.py) that owns its state; every message to a browser is computed on the server from that seat's
view (seatview.py), so a browser never receives what its seat may not see. Games are kept
in SQLite as their seed, options, seats and actions (store.py) and replayed on load. The
page (static/) is plain HTML, CSS and JavaScript that draws whatever the rules declare.
"""
