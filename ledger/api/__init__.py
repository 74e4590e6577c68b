"""The JSON API, /api/v1/: DRF views per domain over the services and selectors the pages call."""
