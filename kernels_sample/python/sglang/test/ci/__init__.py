"""CI registration helpers for files under test/registered/."""
