"""placeholder"""
def showcase():
    return ""
