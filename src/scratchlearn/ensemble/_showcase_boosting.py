"""placeholder"""


def showcase():
    return ""
