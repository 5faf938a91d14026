"""The lobby's filter: by rating category (the variant) and by rated or casual.

Applied on the server: the lobby's page and its socket list only the tables it lets
through (lobby.listing), and a change of any other table is not sent to that page
(lobby.feed)."""
from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import Category

LOBBY_PAGES = 20  # pages of LOBBY_ROWS tables a section shows at most


class LobbyFilterForm(forms.Form):
    category = forms.ChoiceField(label=_("Variant"), required=False,
                                 choices=[("", _("All variants")), *Category.choices])
    rated = forms.ChoiceField(label=_("Rated or casual"), required=False,
                              choices=[("", _("Rated and casual")), ("rated", _("Rated")), ("casual", _("Casual"))])

    def shown(self):
        """{"category": ..., "rated": ...}: what to show ("" for all); unknown values show all."""
        if self.is_bound and self.is_valid():
            return {name: self.cleaned_data[name] for name in self.fields}
        return {name: "" for name in self.fields}

    def page(self):
        """The page of the list asked for (1 when missing or wrong)."""
        try:
            return min(max(int(self.data.get("page", "1")), 1), LOBBY_PAGES)
        except (TypeError, ValueError):
            return 1
