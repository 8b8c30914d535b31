class Plugin:
    pass
