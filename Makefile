# The commands of README.md: `make run` starts the site, `make test` runs every test,
# `make test-fast` all but the browser and slow ones (the edit-test loop).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip

.PHONY: run test test-fast migrate chromium messages

run: $(VENV)/.installed migrate messages
	$(PY) -m config.runsite

test: $(VENV)/.installed-test chromium messages
	$(PY) -m pytest $(PYTEST_ARGS)

test-fast: $(VENV)/.installed-test messages
	$(PY) -m pytest -m "not browser and not slow" $(PYTEST_ARGS)

migrate: $(VENV)/.installed
	DEBUG=$${DEBUG:-1} $(PY) manage.py migrate --noinput

# Translations: locale/<language>/LC_MESSAGES/django.po are kept in git; their .mo files are
# compiled here with Babel (a dependency in pyproject.toml), so no GNU gettext is needed.
MO_FILES := $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/*.po))

messages: $(MO_FILES)

locale/%.mo: locale/%.po $(VENV)/.installed
	$(VENV)/bin/pybabel --quiet compile --input-file $< --output-file $@

# --no-compile: Python compiles what it imports anyway; precompiling all of Django
# and Twisted at install time doubles the install.  The install builds the compiled
# search core (games/ai/_core.c, in place; skipped without a C compiler);
# editable_mode=compat puts the worktree itself on the venv's path, so every
# process (daphne, Celery workers) imports the same games package and core.
EDITABLE := --config-settings editable_mode=compat
$(VENV)/.installed: pyproject.toml games/ai/_core.c
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --no-compile --disable-pip-version-check $(EDITABLE) -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(PIP) install --quiet --no-compile --disable-pip-version-check $(EDITABLE) -e ".[test]"
	touch $@

# Browser tests drive Debian's Chromium (Playwright's own browser download is not used).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; }
