"""Pages and buttons: follow, unfollow, block, unblock (player pages), the challenge
form and a challenge's page with its answers, Friends, the bell's page, settings and
the unsubscribe link of mails. Thin: the services are social.relations, .challenges,
.notifications and .preferences; every refusal is answered in place in the page's
language, changing nothing."""
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import throttle
from accounts.views import username_lookups_refused
from social import challenges, friends, notifications, preferences, relations, unsubscribe
from social.forms import ChallengeForm, SettingsForm
from social.models import Challenge


def _player(request, username):
    """The active player of `username`. A name of nobody counts against the client's
    look-ups, as on player pages (accounts.throttle), so these URLs cannot be used to
    find out which names exist."""
    player = get_user_model().objects.filter(username=username, is_active=True).first()
    if player is None:
        throttle.count_username_miss(request)
        raise Http404("no such player")
    return player


def _back_to(request, player):
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Refresh"] = "true"
        return response
    return redirect("player", username=player.get_username())


@login_required
@require_POST
def relation(request, username, action):
    """Follow, unfollow, block or unblock the player of `username`."""
    if throttle.username_guessing(request):
        return username_lookups_refused(request)
    player = _player(request, username)
    try:
        getattr(relations, action)(request.user, player)
    except relations.RelationError as error:
        messages.error(request, str(error))
    return _back_to(request, player)


@login_required
@require_http_methods(["GET", "POST"])
def challenge_new(request, username):
    if throttle.username_guessing(request):
        return username_lookups_refused(request)
    player = _player(request, username)
    form = ChallengeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            challenge = challenges.send(request.user, player, data["variant"], time_control=data["time_control"],
                                        colour=data["colour"], rated=data["rated"])
        except challenges.ChallengeError as error:
            form.add_error(None, str(error))
        else:
            return redirect("social:challenge", challenge_id=challenge.pk)
    return render(request, "social/challenge_new.html", {"form": form, "player": player},
                  status=400 if request.method == "POST" else 200)


def _challenge_for(request, challenge_id):
    challenge = Challenge.objects.select_related("challenger__profile", "challenged__profile").filter(
        Q(challenger=request.user) | Q(challenged=request.user), pk=challenge_id).first()
    if challenge is None:
        raise Http404("no such challenge")
    return challenge


@login_required
@require_GET
def challenge_page(request, challenge_id):
    challenge = _challenge_for(request, challenge_id)
    status = challenges.status_of(challenge)
    return render(request, "social/challenge.html", {
        "challenge": challenge, "status": status, "status_label": Challenge.Status(status).label,
        "terms": challenges.describe(challenge),
        "mine": challenge.challenger_id == request.user.pk})


@login_required
@require_POST
def answer_seen(request, challenge_id):
    """The header showed the answer to a challenge sent (its notice says so as it loads)."""
    challenges.answer_seen(challenge_id, request.user)
    return HttpResponse(status=204)


@login_required
@require_POST
def answer(request, challenge_id, action):
    """Accept (on to the table, both seated), decline or cancel."""
    refusal = None
    try:
        challenge = getattr(challenges, action)(challenge_id, request.user)
    except challenges.ChallengeError as error:
        refusal, challenge = str(error), _done_already(request.user, challenge_id, action)
    if challenge is None:
        if request.htmx:
            return HttpResponse(format_html('<p class="challenge-refusal error" id="challenge-refusal-{}" '
                                            'hx-swap-oob="true" role="alert">{}</p>', challenge_id, refusal),
                                status=409)
        messages.error(request, refusal)
        return redirect("social:challenge", challenge_id=challenge_id)
    target = reverse("table", args=[challenge.table_code]) if action == "accept" else request.POST.get("next") or "/"
    if not target.startswith("/") or target.startswith("//"):
        target = "/"
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect" if action == "accept" else "HX-Refresh"] = target if action == "accept" else "true"
        return response
    return redirect(target)


DONE = {"accept": (Challenge.Status.ACCEPTED, "challenged"), "decline": (Challenge.Status.DECLINED, "challenged"),
        "cancel": (Challenge.Status.CANCELLED, "challenger")}


def _done_already(user, challenge_id, action):
    """The challenge if this person already did this to it (a double click, a second tab):
    answered like the first time."""
    status, role = DONE[action]
    return Challenge.objects.filter(pk=challenge_id, status=status, **{role: user}).first()


@login_required
@require_GET
def friends_page(request):
    return render(request, "social/friends.html", {"rows": friends.friends_of(request.user),
                                                   "sent": challenges.outgoing(request.user)})


@login_required
@require_GET
def notifications_page(request):
    rows = [{"n": n, "text": notifications.text_of(n)} for n in notifications.latest(request.user)]
    notifications.mark_read(request.user)
    return render(request, "social/notifications.html", {"rows": rows})


@login_required
@require_POST
def settings_save(request):
    form = SettingsForm(request.POST)
    if form.is_valid():
        preferences.save(request.user, **form.cleaned_data)
        messages.success(request, _("Your choices are saved."))
    else:
        messages.error(request, _("Those choices could not be saved."))
    return redirect("profile")


@csrf_exempt  # for a mail client's one-click POST only: every other answer is checked below
@require_http_methods(["GET", "POST"])
def unsubscribe_page(request, token):
    """An unsubscribe link from a mail, signed in or not. Opening it shows what it stops
    and a button (mail scanners open links: a GET changes nothing); the button's POST
    stops that kind of mail, as does a mail client's one-click POST (RFC 8058), which
    comes without the page's CSRF token: the signed token authorises it."""
    if unsubscribe.is_one_click(request):
        return _unsubscribe(request, token)
    return _unsubscribe_confirmed(request, token)


@csrf_protect
def _unsubscribe_confirmed(request, token):
    return _unsubscribe(request, token)


def _unsubscribe(request, token):
    try:
        user_id, kind = unsubscribe.read(token)
    except unsubscribe.Refused as refusal:
        return render(request, "social/unsubscribe.html", {"refusal": str(refusal)}, status=400)
    if request.method == "GET":
        return render(request, "social/unsubscribe.html", {"kind": kind})
    if preferences.save_id(user_id, **{unsubscribe.KINDS[kind]: False}) is None:
        return render(request, "social/unsubscribe.html", {"refusal": _("This link is not valid.")}, status=400)
    return render(request, "social/unsubscribe.html", {"kind": kind, "done": True})
