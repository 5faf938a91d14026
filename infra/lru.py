"""A small bounded mapping that forgets the least recently used entry first: the
per-process caches of game records and drawn states, so a busy game is never
dropped because many others were seen since it last moved."""
import threading
from collections import OrderedDict


class LRU:
    def __init__(self, size):
        self.size = size
        self._items = OrderedDict()
        self._lock = threading.Lock()  # daphne's threads and the socket consumers share it

    def get(self, key, default=None):
        with self._lock:
            if key not in self._items:
                return default
            self._items.move_to_end(key)
            return self._items[key]

    def put(self, key, value):
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self):
        return len(self._items)

    def __contains__(self, key):
        return key in self._items
