"""The OpenAPI components of the game view and the event log, derived from ``engine.shapes``.

Nothing here describes a field: every component is read from a definition in
``games.engine.shapes`` (its type, whether it is required, its ``Doc``, ``Hidden`` and
``CountOf`` markers). ``unoservice.schema.add_shape_components`` adds ``COMPONENTS`` to the
schema; views refer to them with ``ref``.

The forms are those strict OpenAPI 3.0 validators and client generators read alike: a nullable
object or enum is ``oneOf: [$ref, null]`` (``nullable`` without ``type`` beside a ``$ref`` lets
no ``null`` through), each event's ``type`` and each pending's ``type`` a one-value enum, each
object closed (``additionalProperties: false``) so that an undocumented field is a finding.
"""

from __future__ import annotations

from types import NoneType, UnionType
from typing import Any, Final, Literal, Union, get_args, get_origin

from drf_spectacular.utils import OpenApiExample

from games.engine import make_options, start_game, view
from games.engine.evolve import replay
from games.engine.limits import DEFAULT_BANK_INCREMENT, DEFAULT_BANK_INITIAL, DEFAULT_BANK_MAX
from games.engine.options import Bank
from games.engine.shapes import (
    EVENT_DATA,
    GAME_STATUSES,
    CountOf,
    DealtHand,
    Doc,
    Enum,
    Field,
    Format,
    GameExport,
    GameView,
    Hidden,
    OneOf,
    PlayerRef,
    Ref,
    fields_of,
    kind_of,
    unwrap,
)
from games.fairness import commitment
from games.models import GameStatus
from unoservice.schema import rewrite_refs

Schema = dict[str, Any]
_PREFIX: Final = "#/components/schemas/"
# The null member of a nullable union: an OpenAPI 3.0 schema that accepts null and nothing else.
NULL: Final[Schema] = {"type": "object", "nullable": True, "enum": [None]}

assert set(GAME_STATUSES) == set(GameStatus.values)


def ref(component: str) -> Schema:
    return {"$ref": _PREFIX + component}


def _camel(snake: str) -> str:
    return "".join(part.title() for part in snake.split("_"))


class _Deriver:
    """Turns definitions into components, each named once."""

    def __init__(self) -> None:
        self.components: dict[str, Schema] = {}

    def shape(self, shape: type, name: str | None = None, **fixed: Schema) -> Schema:
        """A reference to the component of ``shape``; ``fixed`` replaces some field schemas."""
        name = name or shape.__name__
        if name not in self.components:
            self.components[name] = {}  # reserved first: shapes may refer to themselves
            self.components[name] = self._object(shape, fixed)
        return ref(name)

    def _object(self, shape: type, fixed: dict[str, Schema]) -> Schema:
        properties: dict[str, Schema] = {}
        required: list[str] = []
        for field in fields_of(shape):
            properties[field.name] = fixed.get(field.name) or self._field(field)
            # A CountOf field is never in the log (so not required by its definition) and always
            # in what a viewer sees, which the components describe.
            shown = field.required or field.marker(CountOf) is not None
            if shown and field.marker(Hidden) is None:
                required.append(field.name)
        schema: Schema = {"type": "object", "properties": properties}
        if shape.__doc__ and not shape.__doc__.startswith(shape.__name__ + "("):
            schema["description"] = " ".join(shape.__doc__.split())
        if required:
            schema["required"] = required
        schema["additionalProperties"] = False
        return schema

    def _field(self, field: Field) -> Schema:
        schema = self.hint(field.hint, field.markers)
        notes = [m.text for m in field.markers if isinstance(m, Doc)]
        hidden = field.marker(Hidden)
        if hidden is not None:
            seen_by = " and ".join(
                "the seat of this object" if who == "seat" else f"the seat in '{who}'"
                for who in hidden.shown_to
            )
            shown = f"Shown to {seen_by} only, to everyone" if seen_by else "Hidden"
            notes.append(f"{shown} once the game is finished.")
        count = field.marker(CountOf)
        if count is not None:
            notes.append(f"The number of cards in '{count.field}', shown to everyone.")
        if field.marker(DealtHand) is not None:
            notes.append("Not in a finished game's log, which shows the deck.")
        if notes:
            # A $ref takes no sibling keywords in OpenAPI 3.0: describe it through allOf.
            schema = {"allOf": [schema]} if "$ref" in schema else dict(schema)
            schema["description"] = " ".join(notes)
        return schema

    def hint(self, hint: Any, markers: tuple[object, ...] = ()) -> Schema:
        hint, more = unwrap(hint)
        markers = (*markers, *more)
        for marker in markers:
            if isinstance(marker, Enum):
                self.components.setdefault(
                    marker.component, {"type": "string", "enum": list(marker.values)}
                )
                return ref(marker.component)
            if isinstance(marker, OneOf):
                return self._union(marker)
            if isinstance(marker, Ref):
                return ref(marker.component)
        origin = get_origin(hint)
        if origin in (Union, UnionType):
            options = [arg for arg in get_args(hint) if arg is not NoneType]
            (inner,) = options
            schema = self.hint(inner)
            if "$ref" in schema:
                return {"oneOf": [schema, NULL]}
            return {**schema, "nullable": True}
        if origin is Literal:
            values = list(get_args(hint))
            kind = "integer" if all(isinstance(v, int) for v in values) else "string"
            return {"type": kind, "enum": values}
        if origin is list:
            return {"type": "array", "items": self.hint(get_args(hint)[0])}
        if origin is dict:
            value = get_args(hint)[1]
            if value is Any:
                return {"type": "object", "additionalProperties": True}
            return {"type": "object", "additionalProperties": self.hint(value)}
        if hint is bool:
            return {"type": "boolean"}
        if hint is int:
            return {"type": "integer"}
        if hint is str:
            formats = [m.name for m in markers if isinstance(m, Format)]
            return {"type": "string", "format": formats[0]} if formats else {"type": "string"}
        if isinstance(hint, type) and hasattr(hint, "__required_keys__"):
            return self.shape(hint)
        raise TypeError(f"no schema for {hint!r}")

    def _union(self, union: OneOf) -> Schema:
        if union.component not in self.components:
            self.components[union.component] = {}
            members = {kind_of(m, union.on): self.shape(m) for m in union.members}
            self.components[union.component] = {
                "oneOf": list(members.values()),
                "discriminator": {
                    "propertyName": union.on,
                    "mapping": {kind: item["$ref"] for kind, item in members.items()},
                },
            }
        return ref(union.component)


EVENT_HASH: Final[Schema] = {
    "type": "string",
    "description": (
        "Finished games only: the event's link in the log's hash chain, sha256(previous hash + "
        "canonical event) in hex (docs/fairness.md). Hidden until the end because the hash of "
        "an event that hides a card would let anyone who knows the previous hash try the few "
        "possible cards until one matches."
    ),
}


def _derive() -> dict[str, Schema]:
    deriver = _Deriver()
    events: dict[str, Schema] = {}
    for type_, shape in EVENT_DATA.items():
        data = deriver.shape(shape)
        name = _camel(type_) + "Event"
        deriver.components[name] = {
            "type": "object",
            "properties": {
                "seq": {"type": "integer"},
                "type": {"type": "string", "enum": [type_]},
                "seat": {"type": "integer", "nullable": True},
                "at": {"type": "string", "format": "date-time"},
                "data": data,
                "hash": EVENT_HASH,
            },
            "required": ["seq", "type", "seat", "at", "data"],
            "additionalProperties": False,
        }
        events[type_] = ref(name)
    deriver.components["Event"] = {
        "oneOf": list(events.values()),
        "discriminator": {
            "propertyName": "type",
            "mapping": {type_: item["$ref"] for type_, item in events.items()},
        },
    }
    deriver.components["EventPage"] = {
        "type": "object",
        "properties": {
            "events": {"type": "array", "items": ref("Event")},
            "version": {"type": "integer", "description": "The game's version when read."},
            "next": {"type": "string", "format": "uri", "nullable": True},
        },
        "required": ["events", "version", "next"],
        "additionalProperties": False,
    }
    deriver.shape(GameView)
    deriver.shape(GameExport)
    return deriver.components


COMPONENTS: Final[dict[str, Schema]] = _derive()
"""Every component derived from the shapes, by name."""


def _example() -> dict[str, Any]:
    """A real game seen by seat 0, just after the deal: what the engine and the selectors build."""
    salt = "5c" * 32
    bank = Bank(DEFAULT_BANK_INITIAL, DEFAULT_BANK_INCREMENT, DEFAULT_BANK_MAX)
    log = start_game(2, make_options({"stacking": True}, bank=bank), seed=7, salt=salt)
    state = replay(log)
    shown = view(state, 0)
    del shown["status"]
    players: list[PlayerRef] = [{"id": 1, "username": "ada"}, {"id": 2, "username": "bob"}]
    for entry in shown["seats"]:
        entry["player"] = players[entry["seat"]]
    shown["seats"][1]["on_vacation_until"] = "2026-12-04T09:00:00+00:00"
    shown["round"]["turn_deadline"] = "2026-12-02T12:00:00+00:00"
    shown["round"]["bank_runs_out_at"] = "2026-12-02T12:00:00+00:00"
    body: GameView = {
        "id": "5f0c6f9e-2b1a-4a53-9a3e-6c1f7d1e2a10",
        "status": "active",
        "version": len(log),
        "settings": {
            "max_players": 2,
            "target_score": 500,
            "turn_timeout": 86400,
            "max_timeouts": 3,
            "clock": {"type": "bank", **bank._asdict()},
            "rules": state.options.rules(),
        },
        "deck_commitment": commitment(7, salt),
        "created_by": 1,
        "created_at": "2026-11-29T12:00:00+00:00",
        **shown,  # type: ignore[typeddict-item]
    }
    return dict(body)


GAME_EXAMPLE_VALUE: Final = _example()
GAME_EXAMPLE = OpenApiExample(
    "An active game seen by seat 0", response_only=True, value=GAME_EXAMPLE_VALUE
)


# --- the schema's components derived from the shapes (a drf-spectacular hook) ----------------


def add_shape_components(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular hook: the components derived from ``games.engine.shapes``, the action
    components shared by requests and views, and the forms generators need.

    - The action union and its members are one set of components, ``Action`` and
      ``PlayAction``...: drf-spectacular names the request copies ``...Request``, while a view's
      ``you.legal_actions`` refers to ``Action`` (a listed action is sent back as it is).
    - A request body of the actions endpoint is required; ``game_id`` is a UUID.
    """
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    prefix = "#/components/schemas/"
    union = schemas.get("ActionRequest", {})
    members = [item["$ref"].removeprefix(prefix) for item in union.get("oneOf", [])]
    renames = {
        prefix + name: prefix + name.removesuffix("Request") for name in ["ActionRequest", *members]
    }
    for old, new in renames.items():
        schemas[new.removeprefix(prefix)] = schemas.pop(old.removeprefix(prefix))
    schemas.update(COMPONENTS)
    result = rewrite_refs(result, renames)
    action = {"$ref": prefix + "Action"}
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "path" and parameter.get("name") == "game_id":
                    parameter["schema"] = {"type": "string", "format": "uuid"}
            body = operation.get("requestBody")
            if body and body.get("content", {}).get("application/json", {}).get("schema") == action:
                body["required"] = True
    return result
