"""One page of a list, as every list operation answers it: ``count``, ``next``, ``previous`` and
``results`` (DRF's page-number pagination), ``?page`` and ``?page_size`` within the list's bound.
The query's serializer has already checked both, so a page out of range is the 404 DRF raises."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

from django.db.models import QuerySet
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.engine.limits import Bound
from unoservice import prepared

Row = TypeVar("Row")


def page_response(
    request: Request,
    view: APIView,
    rows: QuerySet[Any] | Sequence[Row],
    show: Callable[[int, Row], Any],
    *,
    size: Bound,
    default: int,
) -> Response:
    """The page of ``rows`` the request asks for, each row shown by ``show(position, row)``
    (``position``: its place in the whole list, from 1)."""
    return whole_page_response(
        request,
        view,
        rows,
        lambda first, page: [show(first + i, row) for i, row in enumerate(page)],
        size=size,
        default=default,
    )


def whole_page_response(
    request: Request,
    view: APIView,
    rows: QuerySet[Any] | Sequence[Row] | prepared.Listing[Any],
    show: Callable[[int, list[Row]], list[Any]],
    *,
    size: Bound,
    default: int,
) -> Response:
    """The page of ``rows`` the request asks for, shown at once by ``show(first, page)``
    (``first``: the position of its first row in the whole list, from 1), for rows that need
    more than themselves, read once for the page."""
    paginator = PageNumberPagination()
    paginator.page_size = default
    paginator.page_size_query_param = size.name
    paginator.max_page_size = size.high
    # Django's paginator takes "a sliceable object with a count() method" too, as a listing is.
    listed = cast("QuerySet[Any] | Sequence[Row]", rows)
    page = list(paginator.paginate_queryset(listed, request, view=view) or [])
    first = paginator.page.start_index() if paginator.page is not None else 1
    return paginator.get_paginated_response(show(first, page))
