// TouchDrivers
