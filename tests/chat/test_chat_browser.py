"""Chat at a table in Chromium, several people at once on the real daphne and Celery:
players talk while a spectator talks beside them and hears none of it, script is
shown as text, a flood is refused in place, a guest uses the phrases, a reported
message deleted by staff vanishes from every open page, and a mute hides a person
for the muter only. English and German, phone and laptop; any console or page error
fails the test."""
import pytest
from playwright.sync_api import expect

from chat.models import Message, Report
from games import Variant
from games.access import Viewer
from lobby import actions
from tests.lobby.browser_people import LAPTOP, PHONE, in_thread, person
from tests.people import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def playing_table(alice, bob, listed=True):
    table = actions.open_table(alice, Variant(board="6x6"), listed=listed)
    actions.join(table, Viewer(user=bob))
    return table


def at_table(page, site, table):
    page.goto(f"{site.url}/tables/{table.code}/")
    page.locator("body[data-socket=open]").wait_for(state="attached")
    expect(page.locator("#chat")).to_be_visible()


def say(page, text):
    """Types and sends; returns once the server took it (the box is emptied) or refused it."""
    page.locator("#chat-text").fill(text)
    page.locator("#chat-send").click()
    page.wait_for_function("""() => document.getElementById('chat-text').value === ''
        || document.getElementById('chat-notice').textContent.trim() !== ''""")


def log(page, room):
    return page.locator(f"#chat-log-{room} .chat-message")


def test_players_and_a_spectator_chat_in_rooms_apart_script_is_text_and_a_flood_is_refused(live_site, browser):
    alice, bob, carol = (make_user(n, n.title()) for n in ("alice", "bob", "carol"))
    table = in_thread(playing_table, alice, bob)
    errors = []
    laptop = person(browser, live_site, alice, errors, viewport=LAPTOP, locale="en-GB")
    phone = person(browser, live_site, bob, errors, viewport=PHONE, locale="de-DE", is_mobile=True)
    spectator = person(browser, live_site, carol, errors, viewport=LAPTOP, locale="en-GB")
    for page in (laptop, phone, spectator):
        page.on("dialog", lambda dialog: errors.append(f"a dialog opened: {dialog.message}"))
        at_table(page, live_site, table)
    expect(phone.locator("#chat-send")).to_have_text("Senden")

    say(laptop, "Good luck, Bob!")
    expect(log(phone, "players").last).to_contain_text("Alice: Good luck, Bob!")
    say(phone, '<script>alert("gotcha")</script> see https://evil.example')
    shown = log(laptop, "players").last.locator(".chat-text")
    expect(shown).to_have_text('<script>alert("gotcha")</script> see https://evil.example')
    assert shown.locator("script, a, img").count() == 0  # text, no element and no link

    say(spectator, "White should take the corner")
    expect(log(spectator, "spectators").last).to_contain_text("Carol: White should take the corner")
    say(laptop, "your move")
    expect(log(phone, "players").last).to_contain_text("your move")
    for page in (laptop, phone):  # the players never get the spectators' room
        expect(page.locator("#chat-log-spectators")).to_have_count(0)
        expect(page.locator("#chat-rooms")).not_to_contain_text("corner")
    expect(spectator.locator("#chat-log-players")).to_have_count(0)  # nor the spectator theirs
    expect(spectator.locator("#chat-rooms")).not_to_contain_text("Good luck")

    for n in range(4):  # five in ten seconds, then no more
        say(spectator, f"message {n}")
    say(spectator, "one too many")
    expect(spectator.locator("#chat-notice")).to_contain_text("You are sending messages too fast")
    expect(spectator.locator("#chat-text")).to_have_value("one too many")  # kept, to send later
    expect(log(spectator, "spectators")).to_have_count(5)
    say(phone, "x" * 20 + "\u0007")  # a control character: refused in German
    expect(phone.locator("#chat-notice")).to_have_text("Eine Nachricht darf keine Steuerzeichen enthalten.")
    assert in_thread(lambda: Message.objects.count()) == 8
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert errors == []


def test_a_guest_sends_the_phrases_in_their_language(live_site, browser):
    alice = make_user("alice", "Alice")
    table = in_thread(lambda: actions.open_table(alice, Variant(board="6x6"), listed=True))
    errors = []
    guest = person(browser, live_site, None, errors, viewport=PHONE, locale="de-DE", is_mobile=True)
    host = person(browser, live_site, alice, errors, viewport=LAPTOP, locale="en-GB")
    watcher = person(browser, live_site, make_user("carol", "Carol"), errors, viewport=LAPTOP, locale="en-GB")
    for page in (guest, host, watcher):
        at_table(page, live_site, table)
    expect(guest.locator("#chat-text")).to_have_count(0)  # no free text without an account
    expect(guest.locator(".chat-phrases button")).to_have_count(6)
    guest.locator('.chat-phrases button[data-phrase="good_luck"]').click()
    expect(log(guest, "spectators").last).to_contain_text("Viel Glück")
    expect(log(watcher, "spectators").last).to_contain_text("Good luck")  # in the reader's language
    expect(log(watcher, "spectators").last).to_contain_text("(guest)")
    expect(host.locator("#chat-rooms")).not_to_contain_text("Good luck")  # the seated host reads the players' room
    assert errors == []


def test_a_reported_message_deleted_by_staff_vanishes_live_and_a_mute_is_for_the_muter_only(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    staff = make_user("sam", "Sam")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    table = in_thread(playing_table, alice, bob)
    errors = []
    laptop = person(browser, live_site, alice, errors, viewport=LAPTOP, locale="en-GB")
    phone = person(browser, live_site, bob, errors, viewport=PHONE, locale="de-DE", is_mobile=True)
    second_tab = phone.context.new_page()
    pages = (laptop, phone, second_tab)
    for page in pages:
        at_table(page, live_site, table)

    say(phone, "you play like a potato")
    for page in pages:
        expect(log(page, "players").last).to_contain_text("you play like a potato")
    message = laptop.locator(".chat-message", has_text="potato")
    message.locator("summary").click()
    message.get_by_role("button", name="Insults or harassment").click()
    expect(laptop.locator(".chat-reported")).to_have_text("Reported. Thank you.")
    assert in_thread(lambda: Report.objects.get().reason) == "abuse"

    moderator = person(browser, live_site, staff, [], viewport=LAPTOP, locale="en-GB")
    moderator.goto(f"{live_site.url}/admin/chat/report/")
    moderator.locator("input[name=_selected_action]").first.check()
    moderator.locator("select[name=action]").select_option("uphold")
    moderator.locator("button[name=index]").click()
    expect(moderator.locator(".messagelist")).to_contain_text("1 reports upheld.")
    for page in pages:  # gone from every open page, nobody reloaded
        expect(page.locator(".chat-message", has_text="potato")).to_have_count(0)

    say(phone, "sorry, still here")
    expect(log(laptop, "players").last).to_contain_text("sorry, still here")
    line = laptop.locator(".chat-message", has_text="sorry")
    line.locator("summary").click()
    line.get_by_role("button", name="Mute Bob").click()
    expect(laptop.locator("#chat-rooms")).not_to_contain_text("sorry, still here")
    say(phone, "hello?")
    for page in (phone, second_tab):  # Bob still sees his own
        expect(log(page, "players").last).to_contain_text("hello?")
    say(laptop, "peace and quiet")
    expect(log(phone, "players").last).to_contain_text("peace and quiet")  # Bob still reads Alice
    expect(laptop.locator("#chat-rooms")).not_to_contain_text("hello?")
    laptop.goto(f"{live_site.url}/chat/settings/")
    expect(laptop.locator("#muted-people")).to_contain_text("Bob")
    assert errors == []


def test_a_reported_message_keeps_its_mute_button(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    table = in_thread(playing_table, alice, bob)
    errors = []
    laptop = person(browser, live_site, alice, errors, viewport=LAPTOP, locale="en-GB")
    phone = person(browser, live_site, bob, errors, viewport=PHONE, locale="en-GB", is_mobile=True)
    for page in (laptop, phone):
        at_table(page, live_site, table)

    say(phone, "you play like a potato")
    message = laptop.locator(".chat-message", has_text="potato")
    message.locator("summary").click()
    message.get_by_role("button", name="Insults or harassment").click()
    expect(message.locator(".chat-reported")).to_have_text("Reported. Thank you.")
    expect(message.get_by_role("button", name="Insults or harassment")).to_have_count(0)  # reported once
    message.get_by_role("button", name="Mute Bob").click()  # still there, no reload
    expect(laptop.locator("#chat-rooms")).not_to_contain_text("potato")
    assert in_thread(lambda: list(alice.chat_mutes.values_list("muted__username", flat=True))) == ["bob"]
    assert errors == []
