"""The benchmarks behind the ``bench_*`` management commands, which only parse their options
and call ``run`` in the module of the same name here: ``scoring`` (the rules engine through its
public API), ``web`` and ``events`` (pages and reads in-process on a throwaway SQLite database)
and ``load`` (a tournament hall against gunicorn and PostgreSQL); beside them what they share,
``documents`` (the generated games they play), ``timing`` (wall times, percentiles, a figure
beside the ceiling measured in the same run) and ``inprocess`` (Django set up for in-process
requests).
"""
