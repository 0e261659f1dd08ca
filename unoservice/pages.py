"""One page of a list, as every list operation answers it: ``count``, ``next``, ``previous`` and
``results`` (DRF's page-number pagination), ``?page`` and ``?page_size`` within the list's bound.
The query's serializer has already checked both, so a page out of range is the 404 DRF raises."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.db.models import QuerySet
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.engine.limits import Bound

Row = TypeVar("Row")


def page_response(
    request: Request,
    view: APIView,
    rows: QuerySet[Any] | Sequence[Row],
    show: Callable[[int, Row], Any] | None = None,
    *,
    size: Bound,
    default: int,
    show_page: Callable[[list[Row]], list[Any]] | None = None,
) -> Response:
    """The page of ``rows`` the request asks for, each row shown by ``show(position, row)``
    (``position``: its place in the whole list, from 1), or the whole page at once by
    ``show_page(rows)`` (what the rows need besides themselves read once for the page)."""
    paginator = PageNumberPagination()
    paginator.page_size = default
    paginator.page_size_query_param = size.name
    paginator.max_page_size = size.high
    page = paginator.paginate_queryset(rows, request, view=view) or []
    if show_page is not None:
        return paginator.get_paginated_response(show_page(list(page)))
    if show is None:
        raise TypeError("page_response needs show or show_page")
    first = paginator.page.start_index() if paginator.page is not None else 1
    return paginator.get_paginated_response([show(first + i, row) for i, row in enumerate(page)])
