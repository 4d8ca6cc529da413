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
# real PostgreSQL, end to end), doctests in the code and in docs/ included.
test: install lint
	$(PYTHON) -m pytest -q

lint:
	$(PYTHON) -m ruff check --output-format concise .
	$(PYTHON) -m ruff format --check .
	$(PYTHON) -m mypy
