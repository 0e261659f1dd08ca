"""Game models (to come): Game, Seat, Event, Hand."""
