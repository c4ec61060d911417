"""Built-in bots, one package per game. Each package exposes ``BOTS`` (name ->
BotInfo) and a compiled ``choose`` that dispatches on the bot's code."""
