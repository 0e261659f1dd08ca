"""Player models (to come)."""
