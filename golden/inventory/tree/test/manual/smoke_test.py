def test_smoke():
    pass


if __name__ == "__main__":
    test_smoke()
