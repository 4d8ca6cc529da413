"""The domain: rules engines, event schemas, the fact store, verification and accounting."""
