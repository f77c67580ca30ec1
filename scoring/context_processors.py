"""What every organiser page shows above its content."""

from functools import cache

from scoring.backup_watch import current_warnings


def backup_warnings(request):
    """The backup warnings, on the organiser's pages only, and read only by a page that shows
    them (base.html): the template calls the function, once."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not request.path.startswith("/organiser/"):
        return {}
    return {"backup_warnings": cache(current_warnings)}
