"""Admin pieces both apps share."""


class ReadOnlyAdminMixin:
    """For records only a service may write (seats, entries, score sheets, the audit trail): the
    admin shows them, and every change goes through the pages, whose services check the rules
    and keep the history."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
