// TouchTrace
