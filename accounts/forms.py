"""Sign-up and the display name."""
import unicodedata

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts.lookalikes import LOOKS_LIKE_SOMEONE_ELSE, looks_like_someone_else
from accounts.models import DISPLAY_NAME_MAX, Profile


def clean_name(value):
    """A name other players see: trimmed, single-spaced, no control characters."""
    value = " ".join((value or "").split())
    if any(unicodedata.category(ch).startswith("C") for ch in value):
        raise ValidationError(_("Use letters, digits, spaces and punctuation only."), code="invalid_name")
    return value


class DisplayNameField(forms.CharField):
    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", DISPLAY_NAME_MAX)
        kwargs.setdefault("label", _("Display name"))
        super().__init__(**kwargs)

    def clean(self, value):
        return super().clean(clean_name(value))


class SignUpForm(UserCreationForm):
    display_name = DisplayNameField(required=False, help_text=_("The name other players see. Your username if empty."))
    email = forms.EmailField(label=_("Email"), required=False,
                             help_text=_("Optional; needed only to reset a forgotten password."))

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "display_name", "email")

    def clean(self):
        cleaned = super().clean()
        for field in ("username", "display_name"):
            if cleaned.get(field) and looks_like_someone_else(cleaned[field]):
                self.add_error(field, ValidationError(LOOKS_LIKE_SOMEONE_ELSE, code="looks_like_someone_else"))
        return cleaned

    def save(self, commit=True):
        user = super().save(commit=False)
        user.email = self.cleaned_data.get("email", "")
        if commit:
            user.save()
            Profile.objects.create(user=user, display_name=self.cleaned_data.get("display_name", ""))
        return user


class ProfileForm(forms.ModelForm):
    display_name = DisplayNameField(required=False, help_text=_("The name other players see. Your username if empty."))

    class Meta:
        model = Profile
        fields = ("display_name",)

    def clean_display_name(self):
        name = self.cleaned_data["display_name"]
        if name and looks_like_someone_else(name, user=self.instance.user):
            raise ValidationError(LOOKS_LIKE_SOMEONE_ELSE, code="looks_like_someone_else")
        return name
