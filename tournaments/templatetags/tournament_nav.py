"""The tournament navigation links: which ones a person sees depends on their role, decided
here in Python so the nav template only shows what it is given."""

from django import template

from tournaments.presenters import can_manage

register = template.Library()


@register.inclusion_tag("tournaments/_nav_links.html", takes_context=True)
def tournament_links(context):
    return {"tournament": context["tournament"], "can_manage": can_manage(context.get("request"))}
