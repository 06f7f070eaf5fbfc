// TouchOutputs
