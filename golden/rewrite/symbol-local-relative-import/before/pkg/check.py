from pkg.new.fused import norm


def check():
    assert norm() == "helped"
