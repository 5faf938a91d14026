from django.urls import path

from games.rulebook import views

urlpatterns = [
    path("", views.index, name="rules"),
    path("<slug:slug>/", views.variant, name="rules_variant"),
]
