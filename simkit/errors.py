"""Errors a user can fix. The CLI prints them as one line and exits with code 2."""


class UserError(Exception):
    """Bad input: unknown game or parameter, bad value, malformed file.

    The message is one line saying what is wrong and how to fix it.
    """


class Interrupted(Exception):
    """A run stopped by Ctrl-C: the message says what was kept and how to resume
    (the CLI prints it as one line and exits with code 130)."""
