// TouchSimulation
