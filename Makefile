# One word per job. Every target sets up what it needs first (a virtual environment in .venv).
# The newest Python 3.11+ on PATH (MuJoCo 4 needs 3.11); override with `make PYTHON=...`.
PYTHON ?= $(shell for p in python3.13 python3.12 python3.11 python3; do \
	  command -v $$p >/dev/null && $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
	  2>/dev/null && echo $$p && break; done)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: lab test build grade format lint clean

# The environment; also Colab's widget versions, kept apart in $(VENV)/ipywidgets7, for the
# test that the quizzes work under them.
$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "Python 3.11 or newer is needed (MuJoCo 4): none found on PATH"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[lab,dev]'
	$(BIN)/python -m pip install --quiet --no-deps --upgrade --target $(VENV)/ipywidgets7 \
		ipywidgets==7.7.1 ipython_genutils==0.2.0
	touch $(STAMP)

## lab: set up and open the lessons in JupyterLab (learners)
# Learners work on copies in my-lessons/, so release/ stays as published; a lesson already
# copied is never overwritten.
lab: $(STAMP)
	mkdir -p my-lessons
	cp -Rn release/. my-lessons/
	$(BIN)/jupyter lab --notebook-dir=my-lessons

## test: set up and run every check of the course and its autograder
test: $(STAMP)
	$(BIN)/python -m pytest

## build: regenerate release/ and the self-study solutions from source/ with nbgrader
build: $(STAMP)
	$(BIN)/python -m course.classroom.build

## grade: grade the bundled demo class into autograded/, feedback/ and grades.csv
grade: $(STAMP)
	$(BIN)/python -m course.classroom.grade --demo

## format: format and lint the package, the tests and the source notebooks
format: $(STAMP)
	$(BIN)/ruff format course grader_tests source nbgrader_config.py
	$(BIN)/ruff check --fix course grader_tests source nbgrader_config.py

lint: $(STAMP)
	$(BIN)/ruff format --check course grader_tests source nbgrader_config.py
	$(BIN)/ruff check course grader_tests source nbgrader_config.py

clean:
	rm -rf $(VENV) gradebook.db submitted feedback grades.csv
