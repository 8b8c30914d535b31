def partitionby(seq):
    return [seq[:1], seq[1:]]


def hidden():
    return "not in __all__: a star import never gave it"
