from django.urls import path

from chat import views

urlpatterns = [
    path("chat/tables/<str:code>/send/", views.send, name="chat_send"),
    path("chat/messages/<int:message_id>/report/", views.report, name="chat_report"),
    path("chat/messages/<int:message_id>/mute/", views.mute, name="chat_mute"),
    path("chat/switch/", views.switch, name="chat_switch"),
    path("chat/settings/", views.settings_page, name="chat_settings"),
]
