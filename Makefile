.PHONY: test lint

# The README's test command: lint, then the whole suite (doctests in docs/ included).
test: lint
	python3 -m pytest -q

lint:
	python3 -m ruff check .
	python3 -m ruff format --check .
