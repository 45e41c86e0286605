def showcase():
    return ""
