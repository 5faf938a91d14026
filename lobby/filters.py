"""The lobby's filter: by rating category (the variant) and by rated or casual.

The lobby's list is pushed whole to every page (one rendering per language), so the
filter does not change what is rendered: the page marks what it shows on the list's
wrapper and the stylesheet hides the other rows (lobby/lobby.css), pushes included."""
from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import Category


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
