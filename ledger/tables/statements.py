"""Statements sent to the database together: in one round trip on PostgreSQL, one by one on
SQLite.

A save holds its table's lock from the read that takes it to the commit, and the table's other
phones, which press save at the same moment, wait on that lock, each holding a worker while it
waits. Every round trip in between makes them all wait longer; so the save's statements under
the lock go in two round trips, not six.

Django's PostgreSQL cursor binds parameters on the client (psycopg's ``ClientCursor``, Django's
default), and so sends a query by PostgreSQL's simple protocol, which takes several statements
at once and runs them one after the other in the transaction, each seeing what was committed
before it began, as if sent one by one. The first that fails stops the rest, and raises.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import psycopg
from django.db import connection, models
from django.db.models.sql import InsertQuery

Statement = tuple[str, Sequence[Any]]


class Found(NamedTuple):
    """What a statement returned: its columns' names, and its rows (none for a write)."""

    columns: list[str]
    rows: list[tuple[Any, ...]]


def together(statements: Sequence[Statement]) -> list[Found]:
    """Run ``statements`` in this order; what each returned."""
    with connection.cursor() as cursor:
        if not isinstance(cursor.cursor, psycopg.ClientCursor):  # SQLite, or server binding
            found = []
            for sql, params in statements:
                cursor.execute(sql, params)
                found.append(_found(cursor))
            return found
        sql = "; ".join(sql for sql, _ in statements)
        cursor.execute(sql, [param for _, params in statements for param in params])
        found = [_found(cursor)]
        while cursor.nextset():
            found.append(_found(cursor))
        return found


def _found(cursor: Any) -> Found:
    if cursor.description is None:
        return Found([], [])
    return Found([column[0] for column in cursor.description], cursor.fetchall())


def insert(objs: Sequence[models.Model], *, returning: bool = False) -> Statement:
    """The INSERT that Django's ``create`` (one object) or ``bulk_create`` would send for
    ``objs``, all of one model, their fields' values as ``pre_save`` makes them (the creation
    times set on them); ``returning``: the new row's primary key (one object)."""
    meta = type(objs[0])._meta
    fields = [field for field in meta.local_concrete_fields if field is not meta.auto_field]
    query = InsertQuery(type(objs[0]))
    query.insert_values(fields, list(objs))
    compiler = query.get_compiler(connection=connection)
    compiler.returning_fields = [meta.pk] if returning else None
    [(sql, params)] = compiler.as_sql()
    return sql, params


def inserted(obj: models.Model, found: Found) -> None:
    """``obj``, inserted by ``insert(..., returning=True)``, as Django's ``create`` leaves it."""
    [(pk,)] = found.rows
    obj.pk = pk
    obj._state.adding = False
    obj._state.db = connection.alias
