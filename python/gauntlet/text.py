"""Text helpers shared by the scripts: a message on one line, for tables and logs."""


def one_line(text, limit=400):
    """`text` (str or bytes) with every run of whitespace as one space, cut to `limit` characters."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
