"""The application layer: every write, and every command that crosses apps.

It sits above the apps (``games``, ``players``, ``notifications``, ``streams``), which never import
it: the unit of work (``unit_of_work``) and the facts it returns, the subscribers that react to
them after commit (``subscribers``), the lobby, play, clocks, tables, bot seats, ratings, the turn
reminders, vacations, the Celery tasks, the long poll, and the HTTP views that call them
(``apis``).
"""
