"""Items from spreadsheets: a .csv, .xlsx or .ods file read into rows (read) and the rows made into a
component's items, typed by its fields, every cell at its `file:row:column` (rows)."""

from .rows import SheetItems, is_sheet_source, sheet_items

__all__ = ["SheetItems", "is_sheet_source", "sheet_items"]
