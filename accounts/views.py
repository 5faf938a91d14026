"""Sign up, sign in, the profile page with recent games, public player pages.

Failed sign-ins are limited by django-axes (accounts.signin_limits), which answers
a refused one with sign_in_refused; a password set through a reset mail lifts the
account's lock. Password change and reset are Django's own views with our templates
(accounts/urls.py); reset mails are limited per address and per client address,
usernames looked up in vain (player pages, failed sign-ups) and accounts made per
client address (accounts.throttle).
"""
from axes.utils import reset as reset_sign_in_failures
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Q
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve, reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from accounts import ratings, throttle
from accounts.forms import ProfileForm, SignUpForm
from accounts.leaderboard import SIZE as LEADERBOARD_SIZE
from accounts.leaderboard import rank_of, top_of
from accounts.models import Category, Profile, RatingChange
from accounts.player_page import head_to_head, rating_cards
from games.access import Viewer
from games.history import game_row
from games.models import Game
from infra.site_url import absolute

RECENT_GAMES = 20

# Why the sign-in page was shown, by the URL name of the page that sent the visitor there.
SIGN_IN_REASONS = {
    "table_new": gettext_lazy("Sign in to open a table."),
    "profile": gettext_lazy("Sign in to see your profile."),
}


def sign_in_reason(next_url):
    try:
        return SIGN_IN_REASONS.get(resolve(next_url.split("?")[0]).url_name, "")
    except Resolver404:
        return ""


def safe_next(request, default="home"):
    target = request.POST.get("next") or request.GET.get("next") or ""
    # A path on this site only: redirect() would take a bare word for a URL name.
    if target.startswith("/") and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                                  require_https=request.is_secure()):
        return target
    return reverse(default)


class SignInView(auth_views.LoginView):
    redirect_authenticated_user = True

    def form_valid(self, form):
        with transaction.atomic():  # the new session and the last sign-in, or neither
            return super().form_valid(form)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        query = urlencode({"next": context["next"]}) if context.get("next") else ""
        context["signup_url"] = reverse("signup") + (f"?{query}" if query else "")
        context["reason"] = sign_in_reason(context.get("next") or "")
        return context


def sign_in_refused(request, original_response=None, credentials=None):
    """AXES_LOCKOUT_CALLABLE: the answer to a sign-in (ours or the admin's) past a limit,
    the same for every account, known or not."""
    return render(request, "registration/sign_in_refused.html", status=429)


class ResetPasswordView(auth_views.PasswordResetView):
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"

    @property
    def extra_email_context(self):
        # The mail links where every mail of the site does, not to the Host header asked on.
        return {"site_url": absolute("")}

    def form_valid(self, form):
        if not throttle.allow_reset_mail(self.request, form.cleaned_data["email"]):
            # The same answer as a sent mail: nobody learns about the address or the limit.
            return HttpResponseRedirect(self.get_success_url())
        return super().form_valid(form)


class SetPasswordView(auth_views.PasswordResetConfirmView):
    success_url = reverse_lazy("password_reset_complete")

    def form_valid(self, form):
        response = super().form_valid(form)
        # Whoever read the mail owns the account: the failures counted against its
        # name (from every address) no longer stand between them and it. What an
        # address got wrong for other accounts still counts.
        reset_sign_in_failures(username=form.user.get_username())
        return response


def username_lookups_refused(request):
    return render(request, "accounts/username_lookups_refused.html", status=429)


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect(safe_next(request))
    if request.method == "POST" and throttle.username_guessing(request):
        return username_lookups_refused(request)
    form = SignUpForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            with transaction.atomic():  # the address's place, the account, its profile and the sign-in, or none
                user = form.save() if throttle.take_sign_up(request) else None
                if user is not None:
                    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            if user is None:
                form.add_error(None, _("Too many accounts were made from your address today. Try again tomorrow, "
                                       "or sign in to an account you have."))
                return render(request, "accounts/signup.html", {"form": form, "next": request.POST.get("next", "")},
                              status=429)
            messages.success(request, _("Welcome, %(name)s! Your account is ready.") % {"name": user.display_name})
            return redirect(safe_next(request))
        # A failed sign-up says whether its username is taken: it counts as a look-up.
        throttle.count_username_miss(request)
    return render(request, "accounts/signup.html",
                  {"form": form, "next": request.POST.get("next") or request.GET.get("next", "")},
                  status=400 if request.method == "POST" else 200)


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    instance, _created = Profile.objects.get_or_create(user=request.user)
    form = ProfileForm(request.POST or None, instance=instance)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            messages.success(request, _("Your display name is saved."))
            return redirect("profile")
    return render(request, "accounts/profile.html", {
        "player": request.user, "form": form, "own": True, "cards": rating_cards(request.user),
        "rows": game_rows(request.user, Viewer.from_request(request, create=False), own=True),
    }, status=400 if request.method == "POST" else 200)


def ratings_help(request):
    """How ratings work, and what the "?" of a provisional rating means."""
    winner, loser = ratings.first_game_example()
    return render(request, "accounts/ratings.html", {
        "start": ratings.START, "provisional_games": ratings.PROVISIONAL_GAMES, "winner": winner, "loser": loser,
        "categories": Category.choices,
    })


def leaderboard(request, category=Category.REVERSI):
    """The best settled ratings of one category, with a tab for each category."""
    if category not in Category.values:
        raise Http404("no such rating category")
    return render(request, "accounts/leaderboard.html", {
        "category": category, "label": Category(category).label, "categories": Category.choices,
        "rows": top_of(category), "size": LEADERBOARD_SIZE, "min_games": ratings.PROVISIONAL_GAMES,
        "viewer_rank": rank_of(request.user, category) if request.user.is_authenticated else None,
    })


def player(request, username):
    if username == request.user.get_username():
        return redirect("profile")
    if throttle.username_guessing(request):
        return username_lookups_refused(request)  # for a name of nobody and a player's alike
    user = get_user_model().objects.select_related("profile").filter(username=username, is_active=True).first()
    if user is None:
        throttle.count_username_miss(request)
        raise Http404("no such player")
    return render(request, "accounts/profile.html", {
        "player": user, "own": False, "cards": rating_cards(user),
        "head_to_head": head_to_head(user, request.user) if request.user.is_authenticated else None,
        "rows": game_rows(user, Viewer.from_request(request, create=False), own=False),
    })


def game_rows(user, viewer, own):
    """The player's most recent games; on another player's page only those the viewer may watch."""
    games = Viewer(user=user).games().prefetch_related("seats__user__profile", "tables")
    if not own:
        mine = viewer.games().values("pk") if (viewer.user or viewer.guest_token) else Game.objects.none().values("pk")
        games = games.filter(Q(is_public=True) | Q(pk__in=mine))
    games = list(games[:RECENT_GAMES])
    changes = {c.game_id: c for c in RatingChange.objects.filter(user=user, game__in=[g.pk for g in games])}
    player = Viewer(user=user)
    return [{**game_row(game, player.seat_in(game), viewer), "rating_change": changes.get(game.pk)} for game in games]
