class Klass:
    kind = "k"
