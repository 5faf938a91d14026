"""Afterwards: My games, the review page, records (export and import), sharing and analysis.

URLs (games/review/urls.py):

    /games/                        my_games           the viewer's games, filtered, paginated
    /games/import/                 review_import      paste or upload a record; ?moves=... shows it
    /games/import/analysis/        review_import_analyse  POST: store a finished import as the
                                                      importer's (once) and analyse it
    /games/<id>/?ply=N             review             the board at any ply, moves, chart, result, analysis
    /games/<id>/transcript.txt     review_transcript  docs/rules.md §10 transcript
    /games/<id>/record.json        review_record      the full record as JSON
    /games/<id>/public/            review_public      POST, players only: share a finished game or not
    /games/<id>/analysis/          review_analyse     POST, anyone who may see a finished game

Who sees a game is decided by games.access.can_watch (its players always, anyone
once it is public); anyone else gets 404, so a private game's existence is never
revealed. The review works without JavaScript (every step is a link with ?ply=N);
with htmx only the #review region is swapped and the URL pushed. Imported games
are not stored: the review of an import carries the variant, the moves and the
players' names (from a JSON record) in its query string, so it can be stepped
through, bookmarked and shared like any other. Only asking for its analysis stores
a finished import, as a game of kind "imported" that its importer owns
(games.access: they see it like a player; nobody else unless it is public).

The package: views (the pages), forms (ImportForm, GamesFilter), records
(replaying moves, the JSON record out, a JSON record in), urls.
"""
