"""The chat's forms: sending without the socket (no JavaScript, or the socket down),
reporting a message, muting its author, the chat switch and the chat settings page
(the switch and the mutes, each undoable). Thin: they authorise and call
chat.posting, chat.moderation and chat.preferences."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.views import safe_next
from chat import moderation, posting, preferences, rooms
from chat.models import Message, Report
from chat.posting import ChatRefusal
from games.access import Viewer, can_watch
from lobby.access import TableNotFound, can_view
from lobby.views import find_by_code
from lobby.models import Table


@require_POST
def send(request, code):
    """A message posted as a form; the page's socket sends it otherwise (chat.consumers)."""
    viewer = Viewer.from_request(request, create=False)
    try:  # counted like a typed code: no oracle for guessing codes
        table = find_by_code(request, code, viewer)
    except TableNotFound:
        raise Http404("No such table.") from None
    if not can_view(table, viewer):
        raise Http404("No such table.")
    phrase = request.POST.get("chat_phrase")
    try:
        posting.post(table.game, viewer, text=request.POST.get("chat_text", ""), phrase=phrase,
                     players_chat=table.players_chat,
                     chat_on=preferences.chat_on(viewer.user, request.session))
    except ChatRefusal as refusal:
        messages.error(request, str(refusal))
    return redirect("table", code=table.code)


def readable_message(request, message_id):
    """The message with this id if the signed-in person asking may read it now, else 404."""
    message = get_object_or_404(Message.objects.select_related("game"), pk=message_id, deleted_at=None)
    viewer = Viewer.from_request(request, create=False)
    table = Table.objects.filter(game=message.game).select_related("game").first()
    if table is not None:
        allowed = can_view(table, viewer) and message.room in rooms.access(message.game, viewer,
                                                                           table.players_chat).reads
    else:
        allowed = can_watch(message.game, viewer)
    if not allowed:
        raise Http404("No such message.")
    return message, table


def back_to(request, table):
    return redirect(safe_next(request) if request.POST.get("next") or table is None else table.get_absolute_url())


@login_required
@require_http_methods(["GET", "POST"])
def report(request, message_id):
    """GET (without JavaScript): the reasons to choose from; POST: the report."""
    message, table = readable_message(request, message_id)
    if request.method == "GET":
        return render(request, "chat/report.html", {"message": message, "table": table,
                                                    "reasons": Report.Reason.choices,
                                                    "chosen": request.GET.get("reason", "")})
    try:
        moderation.report(message, request.user, request.POST.get("reason", ""))
    except ChatRefusal as refusal:
        if request.htmx:
            return HttpResponse(f'<p id="chat-notice" class="chat-notice" role="alert" hx-swap-oob="true">'
                                f'{escape(str(refusal))}</p>', status=400)
        messages.error(request, str(refusal))
        return back_to(request, table)
    if request.htmx:
        # Only the report's buttons give way: the message keeps its Mute button.
        return HttpResponse(f'<span id="chat-report-{message.pk}" class="chat-reported" hx-swap-oob="true">'
                            f'{escape(_("Reported. Thank you."))}</span>')
    messages.success(request, _("Reported. Thank you."))
    return back_to(request, table)


@login_required
@require_http_methods(["GET", "POST"])
def mute(request, message_id):
    """GET (without JavaScript): asks first; POST: mutes the message's author for good
    (undone on the settings page). Open pages drop their messages (chat.live)."""
    message, table = readable_message(request, message_id)
    if message.author is None or message.author_id == request.user.pk:
        raise Http404("Nobody to mute.")
    if request.method == "GET":
        return render(request, "chat/mute.html", {"message": message, "table": table})
    preferences.mute(request.user, message.author)
    if request.htmx:
        return HttpResponse(status=204)
    messages.success(request, _("You no longer see messages from %(name)s.") % {"name": message.author.display_name})
    return back_to(request, table)


@require_POST
def switch(request):
    """The chat switch: off hides every chat, on shows it again (remembered: an account's
    for good, a guest's for the session)."""
    on = request.POST.get("on") == "1"
    preferences.switch(request.user if request.user.is_authenticated else None, request.session, on)
    if request.htmx:
        return HttpResponse(status=204, headers={"HX-Refresh": "true"})
    messages.success(request, _("Chat is on.") if on else _("Chat is off."))
    return redirect(safe_next(request, default="chat_settings"))


@require_http_methods(["GET", "POST"])
def settings_page(request):
    """The chat switch and, for an account, the people it muted, each with Unmute."""
    user = request.user if request.user.is_authenticated else None
    if request.method == "POST" and user is not None and request.POST.get("unmute"):
        try:
            preferences.unmute(user, int(request.POST["unmute"]))
        except ValueError:
            pass
        messages.success(request, _("You see their messages again."))
        return redirect("chat_settings")
    return render(request, "chat/settings.html", {
        "chat_on": preferences.chat_on(user, request.session),
        "mutes": preferences.mutes_of(user) if user is not None else [],
    })

