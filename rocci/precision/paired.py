def compare_precision(*a, **k):
    raise NotImplementedError
