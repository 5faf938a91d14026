"""Who among some accounts is online now, and on which pages: the site's presence
(infra.presence) read for people with an account. Every page's socket says where its
person is (lobby.announcements); friends see it (social.friends), and mail waits for
those not online (social.mail). With Redis away everyone reads as offline."""
import logging

from infra.outages import UNREACHABLE
from infra.presence import presence, user_person

log = logging.getLogger(__name__)


def pages(user_ids):
    """{user id: [paths of their open pages]} of those among `user_ids` online now."""
    people = {user_person(user_id): user_id for user_id in user_ids}
    try:
        found = presence.pages(people)
    except UNREACHABLE as error:
        log.warning("presence unknown (%s): everyone reads as offline", error)
        return {}
    return {people[person]: paths for person, paths in found.items()}


def online(user_ids):
    """The ids among `user_ids` with a page open now."""
    return set(pages(user_ids))


def is_online(user_id):
    return user_id in online([user_id])
