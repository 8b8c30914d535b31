def aware():
    return "aware"
