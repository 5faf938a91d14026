from django.urls import path

from lobby import rematch_views, views

urlpatterns = [
    path("tables/new/", views.table_new, name="table_new"),
    path("tables/join/", views.join_with_code, name="table_join"),
    path("tables/<str:code>/", views.table, name="table"),
    path("tables/<str:code>/sit/", views.sit, name="table_sit"),
    path("tables/<str:code>/guest/", views.sit_as_guest, name="table_guest"),
    path("tables/<str:code>/leave/", views.leave, name="table_leave"),
    path("tables/<str:code>/move/", views.move, name="table_move"),
    path("tables/<str:code>/resign/", views.resign, name="table_resign"),
    path("tables/<str:code>/draw/", views.draw, name="table_draw"),
    path("tables/<str:code>/abort/", views.abort, name="table_abort"),
    path("tables/<str:code>/takeback/", views.takeback, name="table_takeback"),
    path("tables/<str:code>/gone/", views.gone, name="table_gone"),
    path("tables/<str:code>/rematch/", rematch_views.accept, name="table_rematch"),
    path("tables/<str:code>/rematch/decline/", rematch_views.decline, name="table_rematch_decline"),
    path("lobby/", views.lobby, name="lobby"),
]
