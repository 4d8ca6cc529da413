"""The careless Pai Gow dealer's irregularities: each a :class:`~.plan.Plan` for one round."""
