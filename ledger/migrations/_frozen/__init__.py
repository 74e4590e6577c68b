"""Code the migrations run, copied as it was when they were written, so that no migration
imports ``scoring`` or any module of ``ledger`` but ``ledger.migrations``: a change to the
engine or to a model's helper must never change what an old migration does
(tests/ledger/test_migrations_stand_alone.py holds every migration, and every module here,
to it).

Each module is named for the migration or the revision of the rules it was copied for, says
at its head from which file and commit, and is never edited: a migration that needs newer
code gets a copy of its own beside the old one. What a model names and a migration records by
its path (a field's default, the field that keeps amounts) lives only here, and the model
imports it from here: a migration and the model then name one and the same thing, as Django's
``makemigrations`` wants, and changing it means a new one and a migration that names it.
"""
