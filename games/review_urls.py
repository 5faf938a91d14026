"""URLs of My games and the game review (games.review)."""
from django.urls import path

from games import review

urlpatterns = [
    path("games/", review.my_games, name="my_games"),
    path("games/import/", review.import_game, name="review_import"),
    path("games/<str:public_id>/", review.review, name="review"),
    path("games/<str:public_id>/transcript.txt", review.transcript, name="review_transcript"),
    path("games/<str:public_id>/record.json", review.record, name="review_record"),
    path("games/<str:public_id>/public/", review.set_public, name="review_public"),
    path("games/<str:public_id>/analysis/", review.analyse, name="review_analyse"),
]
