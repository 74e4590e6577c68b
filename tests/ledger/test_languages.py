"""Every language the app ships says everything: the pages' text and the engine's messages,
each with the same blanks to fill in as the English."""

from __future__ import annotations

import ast
import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

ROOT = Path(__file__).resolve().parents[2]
MARKERS = {"ScoringError", "Phrase", "N_"}  # what makemessages reads in the engine
TRANSLATED = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def engine_text() -> set[str]:
    """The engine's text for translation: the first argument of every ScoringError, Phrase
    and N_ (both branches of a conditional one)."""
    found = set()
    for source in (ROOT / "scoring").rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in MARKERS
                and node.args
            ):
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.add(first.value)
    return found


def blanks(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}|%\((\w+)\)s", text))


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_of_the_engine_is_translated_with_the_same_blanks(language: str) -> None:
    texts = engine_text()
    assert len(texts) > 100  # the scan finds the engine's text
    catalog = ROOT / "ledger" / "locale" / translation.to_locale(language) / "LC_MESSAGES"
    translated = {msgid: msgstr for msgid, msgstr, _, _ in entries(catalog / "django.po")}
    missing = [text for text in texts if not translated.get(text)]
    changed = [text for text in texts if blanks(translated.get(text, text)) != blanks(text)]
    assert not missing, missing
    assert not changed, changed


def entries(po: Path) -> list[tuple[str, str, bool, bool]]:
    """(msgid, msgstr, fuzzy, plural) of each entry of a .po file but its header."""
    found = []
    for block in po.read_text().split("\n\n"):
        parts: dict[str, str] = {}
        key = ""
        for line in block.splitlines():
            if line.startswith(("msgctxt", "msgid", "msgstr")):
                key, _, line = line.partition(" ")
            if line.startswith('"') and key:
                parts[key] = parts.get(key, "") + ast.literal_eval(line)
        if parts.get("msgid"):  # of a plural, its one form (Chinese has only one)
            msgstr = parts.get("msgstr", parts.get("msgstr[0]", ""))
            # With a context, the key the catalog keeps it under (as pgettext looks it up).
            msgid = "\x04".join(filter(None, (parts.get("msgctxt"), parts["msgid"])))
            found.append((msgid, msgstr, "fuzzy" in block, "msgid_plural" in parts))
    return found


@pytest.mark.parametrize("po", sorted((ROOT / "ledger" / "locale").glob("*/LC_MESSAGES/*.po")))
def test_every_string_is_translated_and_compiled(po: Path) -> None:
    """Nothing untranslated or fuzzy, and the .mo the app reads says what the .po says."""
    with po.with_suffix(".mo").open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    said = entries(po)
    assert len(said) > 200
    assert [msgid for msgid, msgstr, fuzzy, _ in said if fuzzy or not msgstr] == []
    assert [
        msgid
        for msgid, msgstr, _, plural in said
        if (compiled.ngettext(msgid, "", 1) if plural else compiled.gettext(msgid)) != msgstr
    ] == []


@pytest.mark.parametrize(
    ("accept", "language", "word"),
    [
        ("zh-HK", "zh-hant", "開一桌"),
        ("zh-TW,zh;q=0.9", "zh-hant", "開一桌"),
        ("zh-Hant-HK", "zh-hant", "開一桌"),
        ("ko-KR,ko;q=0.9,en;q=0.8", "ko", "테이블 열기"),
        ("zh-CN,zh;q=0.9", "zh-hans", "开一桌"),
        ("en-GB", "en", "Start a table"),
    ],
)
def test_the_phones_language_chooses_the_page_language(
    client, db, accept: str, language: str, word: str
) -> None:
    page = client.get("/", HTTP_ACCEPT_LANGUAGE=accept).content.decode()

    assert f'<html lang="{language}">' in page
    assert word in page


OWN_NAMES = {"en": "English", "zh-hans": "简体中文", "zh-hant": "繁體中文", "ko": "한국어"}


@pytest.mark.parametrize("current", OWN_NAMES)
def test_the_language_switcher_offers_every_other_language_by_its_own_name(
    client, db, current: str
) -> None:
    page = client.get("/", HTTP_ACCEPT_LANGUAGE=current).content.decode()

    offered = re.findall(r'name="language" value="([\w-]+)" lang="[\w-]+">([^<]+)</button>', page)
    assert offered == [(code, OWN_NAMES[code]) for code, _ in settings.LANGUAGES if code != current]


@pytest.mark.parametrize("language", ["zh-hant", "ko"])
def test_the_switchers_choice_wins_over_the_phones_language(client, db, language: str) -> None:
    client.post(reverse("set_language"), {"language": language, "next": "/"})

    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert f'<html lang="{language}">' in page
