def go():
    from pkg import run

    return run()
