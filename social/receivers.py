"""What this app follows of games it cannot be told about directly (games never import
it): a correspondence turn (a notification, and the mail's opt-out, its person's
presence, unsubscribe link and language), a friend's game starting (told to the
followers who may watch it), and a rematch asked for at a player's table; and a
sign-in, whose language the person's mail follows."""
import logging

from django.contrib.auth.signals import user_logged_in
from django.db.models import prefetch_related_objects
from django.dispatch import receiver
from django.utils import translation

from games import signals
from games.access import Viewer
from games.models import Game
from games.presentation import game_url
from lobby.access import can_find
from lobby.signals import rematch_asked
from social import languages, notifications, online, preferences, relations, unsubscribe

log = logging.getLogger(__name__)


@receiver(user_logged_in)
def language_at_sign_in(sender, request, user, **kwargs):
    """The language the browser signing in reads the site in (social.languages)."""
    languages.remember(user, getattr(request, "LANGUAGE_CODE", None))


@receiver(signals.turn_mail_sending)
def turn_mail_opt_out(sender, game, user, **kwargs):
    """No mail for one who opted out, nor for one with a page of the site open: mail is
    for the away, as for challenges (social.mail); the page and the bell tell the rest."""
    if not preferences.of(user).mail_your_turn or online.is_online(user.pk):
        return False
    language = languages.of(user)
    stop = unsubscribe.link(user.pk, "turn")
    with translation.override(language):
        line = unsubscribe.footer(stop)
    return {"line": line, "headers": unsubscribe.headers(stop), "language": language}


@receiver(signals.state_pushed)
def game_pushed(sender, game, **kwargs):
    """After a push: the player to move in correspondence is notified (once a ply), and a
    table game that just started tells each player's followers (once a game)."""
    if game.status != Game.Status.PLAYING or game.kind != Game.Kind.TABLE:
        return
    if game.time_control != Game.TimeControl.DAYS and game.ply != 0:
        return  # any other move costs nothing more (benchmarks/README.md, "The notification socket")
    try:
        seats = list(game.seats.all())
        if game.time_control == Game.TimeControl.DAYS:
            seat = next((s for s in seats if s.colour == game.turn), None)
            if seat is not None and seat.user_id and not seat.played_by_computer:
                notifications.your_turn(game, seat.user_id, game_url(game))
        if game.ply == 0:
            friend_started(game, [s.user for s in seats if s.user_id])
    except Exception:  # never in the way of a game: logged, nobody told
        log.exception("game %s: notifications not made", game.pk)


def friend_started(game, people):
    """Each player's followers who may find the table (lobby.access.can_find) hear that
    they started a game; a private table is not announced, its link is its host's to give."""
    table = game.tables.first()
    if table is None:
        return
    prefetch_related_objects([game], "seats")  # each follower's check reads them
    table.game = game
    followers = relations.followers_of([p.pk for p in people])
    seated = {p.pk for p in people}
    told = {f for ids in followers.values() for f in ids if f not in seated}
    may_find = {u.pk for u in notifications.users(told) if can_find(table, Viewer(user=u))}
    for person in people:
        others = [f for f in followers.get(person.pk, []) if f in may_find]
        if others:
            notifications.friend_playing(game, person, others, game_url(game))


@receiver(rematch_asked)
def rematch_offered(sender, table, game, asked_by, others, **kwargs):
    """The other players of a finished game are told that a rematch waits for them
    (once a game), unless they blocked the one who asked."""
    try:
        for user_id in others:
            if asked_by is None or not relations.is_blocked(asked_by, user_id):
                notifications.rematch_offered(user_id, game, table.get_absolute_url())
    except Exception:  # never in the way of the rematch: logged, nobody told
        log.exception("game %s: rematch notifications not made", game.pk)
