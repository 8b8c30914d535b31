class Extension:
    name = "base"
