"""The games app: the Django side of a game, with the rules and the computer
players inside.

* ``games.rules`` -- the rules core (docs/rules.md §1-§10), standard library only
* ``games.ai``    -- the computer players, standard library only

The rest of the package is Django (models, services, views, consumers, tasks)
and is imported only by Django.  The rules' public names are re-exported here:

    from games import Variant, Board, IllegalMoveError, InvalidVariantError
"""

from .rules import *  # noqa: F403
from .rules import __all__  # noqa: F401
