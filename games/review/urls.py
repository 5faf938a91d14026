"""URLs of My games and the game review."""
from django.urls import path

from games.review import views as review

urlpatterns = [
    path("games/", review.my_games, name="my_games"),
    path("games/import/", review.import_game, name="review_import"),
    path("games/import/analysis/", review.analyse_import, name="review_import_analyse"),
    path("games/<game_id:public_id>/", review.review, name="review"),
    path("games/<game_id:public_id>/transcript.txt", review.transcript, name="review_transcript"),
    path("games/<game_id:public_id>/record.json", review.record, name="review_record"),
    path("games/<game_id:public_id>/public/", review.set_public, name="review_public"),
    path("games/<game_id:public_id>/analysis/", review.analyse, name="review_analyse"),
]
