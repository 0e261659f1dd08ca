"""Every refusal the API can give is told in the reader's language (web/app/i18n.js
``refusal``), never in the server's English ``detail``: each code of ``ERROR_CODES`` has words
in English and Portuguese, in Node without a browser (refusal_check.mjs). Also: a page's own
words come first, a validation is said field by field (a check without words in Portuguese as
"não é válido", not in English), an ``http_5xx`` without a body is the server's failure, and a
code this client does not know (a newer server's) shows the server's ``detail``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.node import run_check
from unoservice.errors import ERROR_CODES

DETAIL = "The server's own English words."
# Codes of the client's own: the server out of reach (api.js).
CLIENT_CODES = {"network"}


def _said(cases: list[dict[str, Any]], tmp: Path) -> dict[str, Any]:
    said: dict[str, Any] = run_check("refusal_check.mjs", cases, tmp, ("i18n.js", "locales.js"))
    return said


def _error(code: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"code": code, "detail": DETAIL, "body": body or {"code": code, "detail": DETAIL}}


def test_every_code_of_the_api_has_words_in_both_languages(tmp_path: Path) -> None:
    codes = sorted(ERROR_CODES)
    said = _said([{"error": _error(code)} for code in codes], tmp_path)
    assert set(said["codes"]) == set(codes) | CLIENT_CODES
    for code, words in zip(codes, said["shown"], strict=True):
        assert DETAIL not in words.values(), code
        assert words["en"] and words["pt"] and words["en"] != words["pt"], (code, words)
        assert "{" not in words["en"] + words["pt"], (code, words)


def test_page_words_fields_failures_and_unknown_codes(tmp_path: Path) -> None:
    game_not_found = {"not_found": ["No such game.", "Este jogo não existe."]}
    chat_fields = {"text": [{"code": "invalid", "message": "The text shows nothing."}]}
    name_fields = {"password": [{"code": "password_too_short", "message": "…", "limit": 8}]}
    cases = [
        {"error": _error("not_found"), "words": game_not_found},
        {"error": _error("not_found")},
        {"error": _error("chat_too_fast"), "vars": {"n": 7}},
        {"error": _error("invalid", {"code": "invalid", "fields": chat_fields})},
        {"error": _error("invalid", {"code": "invalid", "fields": name_fields})},
        {"error": _error("invalid")},
        {"error": {"code": "http_502", "detail": "Bad Gateway", "body": {}}},
        {"error": _error("a_newer_servers_code")},
    ]
    said = _said(cases, tmp_path)["shown"]
    assert said[0] == {"en": "No such game.", "pt": "Este jogo não existe."}
    assert said[1]["pt"] == "Não encontrado: não existe, ou não o pode ver."
    assert said[2] == {
        "en": "Too many messages: wait 7 s.",
        "pt": "Demasiadas mensagens: espere 7 s.",
    }
    assert said[3] == {
        "en": "Message: The text shows nothing.",
        "pt": "Mensagem: não é válido.",
    }
    assert said[4] == {
        "en": "Password: too short (at least 8 characters).",
        "pt": "Palavra-passe: demasiado curta (pelo menos 8 caracteres).",
    }
    assert said[5]["pt"].startswith("O pedido estava mal formado")
    assert said[6] == {
        "en": "The server failed: try again.",
        "pt": "O servidor falhou: tente de novo.",
    }
    assert said[7] == {"en": DETAIL, "pt": DETAIL}
