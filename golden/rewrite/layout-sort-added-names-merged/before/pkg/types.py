T = int
