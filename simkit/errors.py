"""Errors a user can fix. The CLI prints them as one line and exits with code 2."""


class UserError(Exception):
    """Bad input: unknown game or parameter, bad value, malformed file.

    The message is one line saying what is wrong and how to fix it.
    """
