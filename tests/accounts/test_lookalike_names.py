"""Names that look like someone else's are refused, with a clear message in the
page's language: a guest's name at a table, a display name (at sign-up and on the
profile) and a new username. "Looks like" is read as a person reads it: whatever the
case and Unicode form (NFKC, case folded), with l, 1, I and | taken as one, O and 0
as one, and spaces ignored. One's own username stays one's own to show."""
import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.lookalikes import looks_like_someone_else
from games import Variant
from games.access import Viewer
from games.errors import GameError
from lobby import actions
from tests.people import make_user, signed_in

pytestmark = pytest.mark.django_db
ENGLISH = "This name looks like another player"
GERMAN = "sieht aus wie der Name eines anderen Spielers"


@pytest.fixture
def staff1(db):
    return make_user("staff1", "Site Staff")


@pytest.mark.parametrize("name", ["staff1", "STAFF1", "Staffl", "StaffI", "staff 1", "ｓｔａｆｆ１", "site staff",
                                  "Site  Staff", "SITE STAFF"])
def test_a_name_that_reads_as_someone_elses_is_theirs(staff1, name):
    assert looks_like_someone_else(name)
    assert not looks_like_someone_else(name, user=staff1)  # their own


@pytest.mark.parametrize("name", ["staff12", "Stuff1", "Gus", "stafff"])
def test_other_names_are_free(staff1, name):
    assert not looks_like_someone_else(name)


def test_a_guest_may_not_sit_as_someone_else(alice, staff1):
    table = actions.open_table(alice, Variant(board="6x6"))
    with pytest.raises(GameError, match=ENGLISH):
        actions.join(table, Viewer(guest_token="guest-token"), guest_name="Staff1")
    answer = Client().post(reverse("table_guest", args=[table.code]), {"name": "ALICE"}, HTTP_ACCEPT_LANGUAGE="de",
                           follow=True)
    assert GERMAN in answer.content.decode()
    assert table.game.seats.exclude(guest_name="").count() == 0
    actions.join(table, Viewer(guest_token="guest-token"), guest_name="Gus")  # a name of nobody's


def test_a_display_name_may_not_be_another_persons_name_on_the_profile_or_at_sign_up(alice, staff1):
    answer = signed_in(alice).post(reverse("profile"), {"display_name": "staff1"})
    assert answer.status_code == 400 and ENGLISH in answer.content.decode()
    answer = signed_in(alice).post(reverse("profile"), {"display_name": "Alice"})  # her own
    assert answer.status_code == 302

    for fields in ({"username": "newcomer", "display_name": "Site Staff"}, {"username": "StaffI"}):
        answer = Client().post(reverse("signup"), {
            **fields, "email": "", "password1": "a long passphrase", "password2": "a long passphrase"},
            HTTP_ACCEPT_LANGUAGE="de")
        assert answer.status_code == 400 and GERMAN in answer.content.decode()
    assert not get_user_model().objects.filter(username__in=["newcomer", "StaffI"]).exists()
