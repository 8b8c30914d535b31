def pipe(*fs):
    return fs
