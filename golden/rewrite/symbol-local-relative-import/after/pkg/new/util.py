def helper():
    return 'helped'
