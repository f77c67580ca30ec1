"""The one refusal every service raises."""


class ServiceError(Exception):
    """A refusal with a message for the person who asked; ``field`` names the form field it is
    about, when there is one, so a page can show it beside that field."""

    def __init__(self, message: str = "", field: str | None = None):
        super().__init__(message)
        self.field = field
