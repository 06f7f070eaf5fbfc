// TouchRing
