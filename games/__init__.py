"""The games app: game records, the event log, services, selectors and the HTTP API."""
