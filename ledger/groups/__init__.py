"""Circles of regulars: the same friends, evening after evening, and their running ledger."""
