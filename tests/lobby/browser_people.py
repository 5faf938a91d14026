"""Helpers of the after-the-game browser tests: people in browser contexts of their
own, and ORM work run outside Playwright's event loop."""
from concurrent.futures import ThreadPoolExecutor

from django.db import connection
from django.test import Client

LAPTOP, PHONE = {"width": 1366, "height": 768}, {"width": 390, "height": 844}


def in_thread(work, *args, **kwargs):
    """ORM work that pushes to pages runs outside Playwright's event loop."""
    def run():
        try:
            return work(*args, **kwargs)
        finally:
            connection.close()
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def person(browser, site, user, errors, **context_args):
    """A browser context of its own, signed in as `user` (None: a visitor without an account)."""
    context = browser.new_context(**context_args)
    if user is not None:
        client = Client()
        client.force_login(user)
        context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": site.url}])
    page = context.new_page()
    page.set_default_timeout(20000)
    page.on("console", lambda message: errors.append(f"{message.text} {message.location.get('url', '')}")
            if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page
