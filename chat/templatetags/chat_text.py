from django import template

from chat.phrases import PHRASES

register = template.Library()


@register.filter
def shown_text(message):
    """A message's text, or its phrase in the reader's language."""
    return str(PHRASES[message.phrase]) if message.phrase in PHRASES else message.text
