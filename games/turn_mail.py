"""Correspondence (docs/rules.md §11.3): the player whose turn it is gets one e-mail a turn
while away from the site.

Queued after the commit that gave them the turn (games.publishing.schedule_next) as the
Celery task games.turn_mail, and sent by a worker through Django's mail (apps above
may stop it, add a line or name the person's language: games.signals.turn_mail_sending) (the console
unless SMTP is configured: config/settings.py). Once per turn: the game's `mailed_ply`
is set to the turn's ply (games.writer: MarkMailed) in the transaction that sends, so a
second delivery of the task, or the sweep's, finds it set and sends nothing; a send that
fails rolls the mark back and the task is tried again.
"""
from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from games import signals, writer
from games.publishing import wants_mail
from games.errors import GameError
from games.models import Game
from games.presentation import colour_name, game_url, variant_label
from games.turn.commands import MarkMailed
from infra.site_url import absolute


def send_turn_mail(game_id, ply):
    """Tell the player to move at `ply` that it is their turn, once: whether this call sent it."""
    with transaction.atomic():
        game = Game.objects.filter(pk=game_id, ply=ply).prefetch_related("seats__user").first()
        if game is None:
            return False
        seat = game.seat_of(game.turn)
        if not wants_mail(game, seat) or not seat.user.email:
            return False
        try:  # the mark (games.writer), rolled back with the rest if the send fails
            writer.apply(game, MarkMailed(ply=ply), expected_ply=ply)
        except GameError:
            return False
        answers = [answer for _receiver, answer in signals.turn_mail_sending.send(
            sender=Game, game=game, user=seat.user)]
        if False in answers:
            return False  # opted out, or on the site now: the turn counts as told
        extras = [answer for answer in answers if isinstance(answer, dict)]
        language = next((extra["language"] for extra in extras if extra.get("language")), settings.LANGUAGE_CODE)
        with translation.override(language):
            url = absolute(game_url(game))
            subject = _("Your turn: %(variant)s") % {"variant": variant_label(game.variant)}
            body = _("It is your turn (%(colour)s) in your correspondence game. Move by %(deadline)s UTC:\n\n"
                     "%(url)s\n") % {"colour": colour_name(game.turn), "url": url,
                                     "deadline": game.deadline.strftime("%Y-%m-%d %H:%M")}
        body += "".join(f"\n{extra['line']}\n" for extra in extras if extra.get("line"))
        headers = {name: value for extra in extras for name, value in extra.get("headers", {}).items()}
        EmailMessage(subject, body, None, [seat.user.email], headers=headers).send()
    return True
