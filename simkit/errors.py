"""Errors a user can fix. The CLI prints them as one line and exits with code 2."""


def printable(text: str) -> str:
    """``text`` with control characters (escape codes, newlines) shown as escapes: user
    text in a message (a bot's exception, a file name) never drives the terminal."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


class UserError(Exception):
    """Bad input: unknown game or parameter, bad value, malformed file.

    The message is one line saying what is wrong and how to fix it.
    """

    def __init__(self, message: str = ""):
        super().__init__(printable(message))


class Interrupted(Exception):
    """A run stopped by Ctrl-C: the message says what was kept and how to resume
    (the CLI prints it as one line and exits with code 130)."""
