"""The chat in the admin: reported messages with the messages around them, and the
moderators' actions (delete a message, uphold or dismiss a report, silence an account
or lift a silence), each through chat.moderation. Rows are never edited here."""
from django.contrib import admin, messages
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from chat import moderation
from chat.models import ChatSetting, Message, Mute, Report, Silence
from chat.templatetags.chat_text import shown_text
from games.admin import ReadOnlyAdmin

CONTEXT = 5  # messages shown before and after a reported one


def around(message):
    """The messages of the same room just before and after `message`, it marked."""
    same_room = Message.objects.filter(game_id=message.game_id, room=message.room)
    before = list(same_room.filter(id__lt=message.pk).order_by("-id")[:CONTEXT])[::-1]
    after = list(same_room.filter(id__gt=message.pk).order_by("id")[:CONTEXT])
    def line(m):
        text = format_html("{}: {}", m.author_name, shown_text(m))
        if m.deleted_at:
            text = format_html("<del>{}</del>", text)
        return format_html("<strong>{}</strong>", text) if m.pk == message.pk else text

    return format_html('<ol class="chat-context">{}</ol>',
                       format_html_join("", "<li>{}</li>", ((line(m),) for m in [*before, message, *after])))


@admin.action(description=_("Delete the selected messages (they vanish from every page)"))
def delete_messages(modeladmin, request, queryset):
    deleted = sum(moderation.delete_message(pk, request.user) for pk in queryset.values_list("pk", flat=True))
    modeladmin.message_user(request, _("%(n)d messages deleted.") % {"n": deleted}, messages.SUCCESS)


@admin.action(description=_("Silence the authors of the selected messages (until lifted)"))
def silence_authors(modeladmin, request, queryset):
    authors = {pk for pk in queryset.values_list("author_id", flat=True) if pk is not None}
    silenced = sum(moderation.silence_account(pk, request.user) is not None for pk in authors)
    modeladmin.message_user(request, _("%(n)d accounts silenced.") % {"n": silenced}, messages.SUCCESS)


@admin.register(Message)
class MessageAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "author_name", "shown", "room", "game", "deleted_at"]
    list_filter = ["room", ("deleted_at", admin.EmptyFieldListFilter)]
    search_fields = ["text", "author_name", "author__username"]
    readonly_fields = ["context"]
    actions = [delete_messages, silence_authors]

    @admin.display(description=_("text"))
    def shown(self, message):
        return shown_text(message)

    @admin.display(description=_("around it"))
    def context(self, message):
        return around(message)


@admin.action(description=_("Uphold: delete the reported messages (three in a week silence for a day)"))
def uphold(modeladmin, request, queryset):
    decided = sum(moderation.decide(pk, True, request.user) for pk in queryset.values_list("pk", flat=True))
    modeladmin.message_user(request, _("%(n)d reports upheld.") % {"n": decided}, messages.SUCCESS)


@admin.action(description=_("Dismiss the selected reports"))
def dismiss(modeladmin, request, queryset):
    decided = sum(moderation.decide(pk, False, request.user) for pk in queryset.values_list("pk", flat=True))
    modeladmin.message_user(request, _("%(n)d reports dismissed.") % {"n": decided}, messages.SUCCESS)


@admin.action(description=_("Silence the authors of the reported messages (until lifted)"))
def silence_reported(modeladmin, request, queryset):
    silence_authors(modeladmin, request, Message.objects.filter(reports__in=queryset))


@admin.register(Report)
class ReportAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "status", "reason", "reported_text", "author", "reporter"]
    list_filter = ["status", "reason"]
    search_fields = ["message__text", "message__author_name", "reporter__username"]
    readonly_fields = ["context"]
    actions = [uphold, dismiss, silence_reported]
    list_select_related = ["message", "reporter"]

    @admin.display(description=_("message"))
    def reported_text(self, report):
        return shown_text(report.message)

    @admin.display(description=_("author"))
    def author(self, report):
        return report.message.author_name

    @admin.display(description=_("the message and around it"))
    def context(self, report):
        return around(report.message)


@admin.action(description=_("Lift the selected silences"))
def lift(modeladmin, request, queryset):
    lifted = sum(moderation.lift(pk) for pk in queryset.values_list("pk", flat=True))
    modeladmin.message_user(request, _("%(n)d silences lifted.") % {"n": lifted}, messages.SUCCESS)


@admin.register(Silence)
class SilenceAdmin(ReadOnlyAdmin):
    list_display = ["user", "until", "automatic", "given_by", "lifted_at", "created_at"]
    list_filter = ["automatic", ("lifted_at", admin.EmptyFieldListFilter)]
    search_fields = ["user__username"]
    actions = [lift]


@admin.register(Mute)
class MuteAdmin(ReadOnlyAdmin):
    list_display = ["muter", "muted", "created_at"]
    search_fields = ["muter__username", "muted__username"]


@admin.register(ChatSetting)
class ChatSettingAdmin(ReadOnlyAdmin):
    list_display = ["user", "chat_on"]
    search_fields = ["user__username"]
