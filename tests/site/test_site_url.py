"""`make run` gives each of its parts the address it serves on, so the links of the mail
its workers send open (config/runsite.py, infra/site_url.py); SITE_URL set by hand wins."""
from config.runsite import parts_env, served_at


def test_make_run_tells_its_parts_where_it_serves():
    env = parts_env({"PATH": "/bin"}, "redis://r", "127.0.0.1", "8000")
    assert (env["SITE_URL"], env["REDIS_URL"], env["PATH"]) == ("http://127.0.0.1:8000", "redis://r", "/bin")
    assert parts_env({}, "redis://r", "0.0.0.0", "9000")["SITE_URL"] == "http://127.0.0.1:9000"
    assert served_at("::", "9000") == "http://[::1]:9000"
    assert served_at("::1", "9000") == "http://[::1]:9000"
    assert served_at("localhost", "8001") == "http://localhost:8001"


def test_an_address_set_by_hand_is_kept():
    env = parts_env({"SITE_URL": "https://reversi.example"}, "redis://r", "127.0.0.1", "8000")
    assert env["SITE_URL"] == "https://reversi.example"
