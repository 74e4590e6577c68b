"""The players of every circle: a lone table's, a tournament's, a group's."""
