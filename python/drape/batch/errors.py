"""Errors of the batch engine that mean bad input (the command exits 2)."""


class ManifestError(ValueError):
    """The manifest or the batch options are bad; the message names the file and line."""
