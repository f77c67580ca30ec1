"""The tournaments app's pages, one module per subject.

``events``: the organiser's home, an event's overview, a new event, its settings and rules, the
phones' tent card. ``players``: entering, editing, withdrawing and importing players.
``check_in``: the door. ``seating``: planning and seating the days, changes, late joins and
substitutes, the printed charts. ``seasons``: making a season and choosing its events.
``public``: the pages anyone may read. ``common``: the lookups the organiser pages share.
"""
