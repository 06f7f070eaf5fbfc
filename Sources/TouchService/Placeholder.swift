// TouchService
