def frozen():
    return "frozen"
