"""A Python peer's refusal (docs/matrix.md, "The worker protocol"): the exception's class and
message, and the class alone as `error_type` with its language, by which the matrix tells a
reader tripping over the input from one refusing it (docs/matrix.md, "Internal errors")."""
from gauntlet.text import one_line


def refusal(e, prefix=""):
    return {"outcome": "refused", "message": prefix + one_line(f"{type(e).__name__}: {e}"),
            "error_type": type(e).__name__, "language": "python"}
