"""The players app: registration, tokens, profiles and statistics."""
