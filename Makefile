.PHONY: install run test lint

PYTHON ?= python3

# Install the package and its development tools: idempotent, and quick when installed.
install:
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -e '.[dev]'

# The main job: a simulated shift, with careless dealers at 3% of rounds, through the dev
# broker into the embedded store, reported, then served: it ends by printing the console's URL and a first analyst's and auditor's
# passwords, and serves until Ctrl-C.
run: install
	tablewatch run --irregularities 0.03 --serve

# The whole test suite: lint, then every tier (unit, integration on the dev broker and a
# real PostgreSQL, end to end), doctests in the code and in docs/ included. On every core, up
# to four (pytest-xdist): each worker starts its own dev broker, and every test that stores
# anything has its own database or directory already; a module whose tests are one story in
# order (the console's browser test) names an xdist group and runs on one worker.
test: install lint
	$(PYTHON) -m pytest -q --numprocesses auto --maxprocesses 4 --dist loadgroup

lint:
	$(PYTHON) -m ruff check --output-format concise .
	$(PYTHON) -m ruff format --check .
	$(PYTHON) -m mypy
