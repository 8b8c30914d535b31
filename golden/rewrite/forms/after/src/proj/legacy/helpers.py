EPS = 1e-6
