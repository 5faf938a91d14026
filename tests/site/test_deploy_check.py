"""`manage.py check --deploy` with a production environment has nothing left to fix."""
import os
import secrets
import subprocess
import sys

from tests.servers import ROOT


def test_check_deploy_is_clean_with_a_production_environment(tmp_path):
    env = {key: value for key, value in os.environ.items()
           if key not in {"DATABASE_URL", "DEBUG", "PYTEST_CURRENT_TEST", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update(
        DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="reversi.example",
        CSRF_TRUSTED_ORIGINS="https://reversi.example", VAR_DIR=str(tmp_path),
        SECURE_HSTS_SECONDS="31536000", SECURE_HSTS_INCLUDE_SUBDOMAINS="1", SECURE_HSTS_PRELOAD="1",
        REDIS_URL=env.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
    )
    checked = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                             cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "System check identified no issues" in checked.stdout
