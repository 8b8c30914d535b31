def ids(names):
    return [f"attention.{n}" for n in names]
