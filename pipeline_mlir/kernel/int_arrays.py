"""Integer arrays as sets: the distinct values of an array of element numbers, sorted.

The front end asks for the distinct LDS or global elements of an access thousands of times
per build (the tag checks, the partition, the copies' regrouping).  :func:`distinct` gives
what ``np.unique`` gives for an integer array (flattened, sorted, the array's own dtype),
by one sort and a comparison of neighbours: numpy 2's ``np.unique`` hashes the values
first, about ten times slower on the arrays of a few thousand elements asked here.
"""

from __future__ import annotations

import numpy as np


def distinct(values) -> np.ndarray:
    """The distinct values of the integer (or boolean) array ``values``, flattened and
    sorted ascending, in its dtype: ``np.unique(values)``."""
    s = np.sort(np.asarray(values).ravel())
    if s.size < 2:
        return s
    keep = np.empty(s.size, bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return s[keep]
