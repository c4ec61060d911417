"""Independent plain-Python reference models of the games' rules (written from the rulebooks)."""
