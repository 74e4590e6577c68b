"""What every page shares: middleware, limits, health probes, the installable app, converters,
shared forms and display, and the site-wide views. It imports no domain (pyproject.toml)."""
