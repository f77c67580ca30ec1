"""The summary at the top of a page whose form was refused: how many problems, and a link to
each field, so nobody has to scroll down to find what was wrong."""

from django import template

register = template.Library()


def error_items(form, form_id: str) -> list[dict[str, str]]:
    """Each problem of a refused form, as the summary lists it: the field's label and the
    message, linking to the field (a problem of the whole form links to the form)."""
    items = [{"href": f"#{form_id}", "text": str(message)} for message in form.non_field_errors()]
    for field in form:
        items += [
            {"href": f"#{field.id_for_label}", "text": f"{field.label}: {message}"}
            for message in field.errors
        ]
    return items


@register.inclusion_tag("tournaments/_error_summary.html")
def error_summary(form, what: str, form_id: str) -> dict:
    """``{% error_summary form "The rules" "rules-form" %}``: nothing when the form has
    no problem; else "The rules were not saved: 2 problems" with the list, focused on load."""
    items = error_items(form, form_id) if form.is_bound and form.errors else []
    return {"items": items, "what": what, "summary_id": f"{form_id}-problems"}
