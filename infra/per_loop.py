"""One object per asyncio event loop. Daphne runs one loop, so one per process (its
sockets share it); each test's loop gets its own, and a closed loop's goes with it."""
import asyncio
import weakref


class PerLoop:
    def __init__(self, make):
        self.make, self.made = make, weakref.WeakKeyDictionary()

    def __call__(self):
        loop = asyncio.get_running_loop()
        made = self.made.get(loop)
        if made is None:
            made = self.made[loop] = self.make()
        return made
