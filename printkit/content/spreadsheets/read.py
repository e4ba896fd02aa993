"""A spreadsheet file (.csv, .xlsx, .ods) read into its header row and data rows, each cell with its
spreadsheet row and column number, within limits: a designer's deck kept where they edit it."""
from __future__ import annotations

import codecs
import csv
import io
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import ContentError, Pos, expected_found
from ..compose import decode, read_limited

FORMATS = (".csv", ".xlsx", ".ods")
MAX_ROWS = 10_001  # a header and one row per item: a component holds at most 10,000 pieces
MAX_COLUMNS = 200  # far beyond a card's fields; bounds the work of a sheet padded with empty columns
MAX_UNPACKED = 64 << 20  # bytes of a workbook's unpacked parts: a 4 MiB zip may unpack to gigabytes
Cell = Any  # str, int, float, bool or None (an empty cell)


@dataclass(frozen=True)
class Table:
    """The first row (the headers) and every later row that has a value, by spreadsheet row number."""

    shown: str
    headers: list[str]
    rows: list[tuple[int, list[Cell]]]


def read_table(file: Path, shown: str, sheet: str | None) -> Table:
    """The table of a file by its extension; raises ContentError with a positioned problem."""
    data = read_limited(file, shown)
    suffix = file.suffix.lower()
    if suffix == ".csv":
        if sheet is not None:
            raise ContentError([expected_found(Pos(shown), "no 'sheet' for a .csv file (it has one)", sheet)])
        rows = _csv_rows(data, shown)
    else:
        _check_zip(data, shown, "an .xlsx workbook" if suffix == ".xlsx" else "an .ods spreadsheet")
        try:
            rows = _xlsx_rows(data, sheet, shown) if suffix == ".xlsx" else _ods_rows(data, sheet, shown)
        except ContentError:
            raise
        except Exception as exc:  # noqa: BLE001 - a damaged workbook fails deep inside its reader, in many ways
            what = "an .xlsx workbook" if suffix == ".xlsx" else "an .ods spreadsheet"
            raise ContentError([expected_found(Pos(shown), what, f"a file its reader refuses ({type(exc).__name__})",
                                               raw=True)]) from None
    return _table(rows, shown)


def _check_zip(data: bytes, shown: str, what: str) -> None:
    """Workbooks are zip files: one that is not, or that unpacks to more than the limit, is refused unread."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except zipfile.BadZipFile:
        raise ContentError([expected_found(Pos(shown), what, "a file that is not one (not a zip file)", raw=True)]) from None
    if unpacked > MAX_UNPACKED:
        raise ContentError([expected_found(Pos(shown), f"{what} of at most {MAX_UNPACKED >> 20} MiB unpacked",
                                           f"{unpacked >> 20:,} MiB", raw=True)])


def _table(rows: list[tuple[int, list[Cell]]], shown: str) -> Table:
    if not rows or rows[0][0] != 1:
        raise ContentError([expected_found(Pos(shown), "a header row (the columns' names) in row 1", "none", raw=True)])
    headers = ["" if c is None else str(c).strip() for c in rows[0][1]]
    return Table(shown, headers, [(n, cells) for n, cells in rows[1:] if any(_filled(c) for c in cells)])


def _filled(cell: Cell) -> bool:
    return cell is not None and not (isinstance(cell, str) and not cell.strip())


def _bounded(rows: list[tuple[int, list[Cell]]], number: int, cells: list[Cell], shown: str) -> None:
    """Keep a row, trailing empty cells dropped, within the limits of rows and columns."""
    while cells and not _filled(cells[-1]):
        cells.pop()
    if len(cells) > MAX_COLUMNS:
        raise ContentError([expected_found(Pos(shown, number, MAX_COLUMNS + 1), f"at most {MAX_COLUMNS} columns",
                                           f"{len(cells)}", raw=True)])
    if cells:
        if len(rows) >= MAX_ROWS:
            raise ContentError([expected_found(Pos(shown, number, 1), f"at most {MAX_ROWS - 1:,} rows of items",
                                               "more", raw=True)])
        rows.append((number, cells))


def _csv_rows(data: bytes, shown: str) -> list[tuple[int, list[Cell]]]:
    """UTF-8 with or without the byte-order mark spreadsheet programs write; quoted cells may hold commas
    and line breaks (a line break inside a cell becomes a plain line feed). Cells are separated by commas, or
    by the semicolons or tabs of the header line when it has no comma (as Excel saves CSV where the decimal
    mark is a comma). A row is numbered by the line of the file it starts on, as an editor shows it."""
    text = decode(data.removeprefix(codecs.BOM_UTF8), shown)
    header = text.split("\n", 1)[0]
    delimiter = "," if "," in header else next((d for d in ";\t" if d in header), ",")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows: list[tuple[int, list[Cell]]] = []
    start = 1
    try:
        for record in reader:
            cells: list[Cell] = [c.replace("\r\n", "\n").replace("\r", "\n") for c in record]
            _bounded(rows, start, [c if c.strip() else None for c in cells], shown)
            start = reader.line_num + 1
    except csv.Error as exc:
        raise ContentError([expected_found(Pos(shown, start, 1), "CSV (a quoted cell closed by its quote)",
                                           str(exc), raw=True)]) from None
    return rows


def _xlsx_rows(data: bytes, sheet: str | None, shown: str) -> list[tuple[int, list[Cell]]]:
    from openpyxl import load_workbook  # only a game with an .xlsx sheet pays for the import

    book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    try:
        page = book.worksheets[0] if sheet is None else book[_sheet(sheet, book.sheetnames, shown)]
        rows: list[tuple[int, list[Cell]]] = []
        for number, values in enumerate(page.iter_rows(min_row=1, values_only=True), start=1):
            _bounded(rows, number, [_plain_cell(v) for v in values[: MAX_COLUMNS + 1]], shown)
        return rows
    finally:
        book.close()


def _ods_rows(data: bytes, sheet: str | None, shown: str) -> list[tuple[int, list[Cell]]]:
    from odf.opendocument import load
    from odf.table import Table as OdsTable, TableRow

    tables = load(io.BytesIO(data)).spreadsheet.getElementsByType(OdsTable)
    names = [str(t.getAttribute("name")) for t in tables]
    page = tables[0] if sheet is None else tables[names.index(_sheet(sheet, names, shown))]
    rows: list[tuple[int, list[Cell]]] = []
    number = 0
    for row in page.getElementsByType(TableRow):
        cells = _ods_cells(row)
        repeat = int(row.getAttribute("numberrowsrepeated") or 1)
        if not any(_filled(c) for c in cells):  # spreadsheets pad the sheet with a million repeated empty rows
            number += repeat
            continue
        for _ in range(min(repeat, MAX_ROWS + 1)):
            number += 1
            _bounded(rows, number, list(cells), shown)
    return rows


def _ods_cells(row: Any) -> list[Cell]:
    from odf import teletype

    cells: list[Cell] = []
    for cell in row.childNodes:
        if cell.qname[1] not in ("table-cell", "covered-table-cell"):
            continue
        repeat = min(int(cell.getAttribute("numbercolumnsrepeated") or 1), MAX_COLUMNS + 1 - len(cells))
        kind = cell.getAttribute("valuetype")
        if kind in ("float", "percentage", "currency"):
            number = float(cell.getAttribute("value"))
            value: Cell = int(number) if number.is_integer() else number
        elif kind == "boolean":
            value = cell.getAttribute("booleanvalue") == "true"
        else:  # text: its paragraphs are its lines
            paragraphs = [teletype.extractText(p) for p in cell.childNodes if p.qname[1] == "p"]
            value = "\n".join(paragraphs) if paragraphs else None
        cells += [value] * max(repeat, 0)
    return cells


def _plain_cell(value: Any) -> Cell:
    """A workbook cell as text, number or truth value; a date or a formula's error is kept as its text."""
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    return str(value)


def _sheet(wanted: str, names: list[str], shown: str) -> str:
    if wanted in names:
        return wanted
    listed = ", ".join(repr(n) for n in names)
    raise ContentError([expected_found(Pos(shown), f"a sheet named {wanted!r} (the file has {listed})", "none", raw=True)])
