"""GNOME Settings through a fingerprint daemon, headless: see __main__.py."""
