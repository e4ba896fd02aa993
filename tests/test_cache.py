"""The content cache never serves stale or foreign data."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from printkit.content.cache import cache_dir
from printkit.errors import ContentError
from printkit.content.load import load_yaml


def test_an_edited_file_is_parsed_afresh(tmp_path, monkeypatch):
    monkeypatch.setenv("PRINTKIT_CACHE", str(tmp_path / "cache"))
    file = tmp_path / "x.yaml"
    file.write_text("a: 1\n")
    assert load_yaml(file, "x.yaml") == {"a": 1}
    assert load_yaml(file, "x.yaml") == {"a": 1}  # from the cache
    assert len(list((tmp_path / "cache").glob("*.pickle"))) == 1
    file.write_text("a: 2\nb: [1, 2]\n")
    again = load_yaml(file, "x.yaml")
    assert again == {"a": 2, "b": [1, 2]}
    assert str(again.value_pos["b"]) == "x.yaml:2:4"


def test_bad_files_are_not_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("PRINTKIT_CACHE", str(tmp_path / "cache"))
    file = tmp_path / "bad.yaml"
    file.write_text("a: [1\n")
    with pytest.raises(ContentError):
        load_yaml(file, "bad.yaml")
    assert not list((tmp_path / "cache").glob("*.pickle"))


def test_a_cache_others_can_write_to_is_not_used(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    monkeypatch.setenv("PRINTKIT_CACHE", str(shared))
    assert cache_dir() is None
    monkeypatch.setenv("PRINTKIT_CACHE", "off")
    assert cache_dir() is None


def test_the_tests_never_use_the_users_own_cache(private_cache):
    assert cache_dir() == private_cache and private_cache != Path.home() / ".cache" / "printkit"


def test_art_edited_during_a_session_is_read_afresh(tmp_path):
    from printkit.draw.media.images import _asset_key

    art = tmp_path / "icon.svg"
    art.write_text('<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>')
    first = _asset_key(str(art))
    art.write_text('<svg xmlns="http://www.w3.org/2000/svg"><circle r="1"/></svg>')
    os.utime(art, ns=(art.stat().st_atime_ns, art.stat().st_mtime_ns + 1_000_000))
    assert _asset_key(str(art)) != first
