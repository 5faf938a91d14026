"""Sign-up, sign-in (throttled) and the display name."""
import unicodedata

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts import throttle
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

    def save(self, commit=True):
        user = super().save(commit=False)
        user.email = self.cleaned_data.get("email", "")
        if commit:
            user.save()
            Profile.objects.create(user=user, display_name=self.cleaned_data.get("display_name", ""))
        return user


class SignInForm(AuthenticationForm):
    """Django's sign-in form, refusing to check passwords after too many failures."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "throttled": _("Too many failed sign-in attempts. Please wait a few minutes and try again."),
    }

    throttled = False

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        if throttle.is_locked(self.request, username):
            self.throttled = True
            raise ValidationError(self.error_messages["throttled"], code="throttled")
        try:
            cleaned = super().clean()
        except ValidationError:
            throttle.record_failure(self.request, username)
            raise
        throttle.clear(self.request, username)
        return cleaned


class ProfileForm(forms.ModelForm):
    display_name = DisplayNameField(required=False, help_text=_("The name other players see. Your username if empty."))

    class Meta:
        model = Profile
        fields = ("display_name",)
