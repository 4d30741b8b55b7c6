"""The five error kinds (docs/rules.md X1) and the file-name prefixes that name them."""
import os

KINDS = ("Malformed", "InvalidModel", "Unsupported", "ExternalData", "Io")
# Lower-case prefix of `<kind>-<case>.onnx` -> kind; `accept-` files must import.
PREFIXES = {k.lower(): k for k in KINDS}
ACCEPT = "accept"


def expected_from_name(file_name):
    """('accept', None) or ('refuse', 'Malformed') ... from `<kind>-<case>.ext`; None if unnamed."""
    prefix = os.path.basename(file_name).split("-", 1)[0].lower()
    if prefix == ACCEPT:
        return "accept", None
    if prefix in PREFIXES:
        return "refuse", PREFIXES[prefix]
    return None
