"""Admin registrations for the players app."""
