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
	$(BIN)/python -m pip install --quiet -e '.[instructor,dev]'
	$(BIN)/python -m pip install --quiet --no-deps --upgrade --target $(VENV)/ipywidgets7 \
		ipywidgets==7.7.1 ipython_genutils==0.2.0
	touch $(STAMP)

# A Colab-like environment for grader_tests/test_colab_like.py, built once: Colab's versions
# that matter (Python 3.12, numpy 2, matplotlib 3.10, ipywidgets 7.7.1 with widgetsnbextension
# 3.6), and a wheelhouse of what the lessons' first cell installs in Colab, so that the test
# runs that install step offline (setuptools too: pip builds the course package from a git
# address in an isolated build environment, which Colab fills from PyPI). Python: pyenv's 3.12 if there is one, else python3.12 or
# python3.13 on PATH, else $(PYTHON); override with `make COLAB_PYTHON=...`.
COLAB_VENV := .venv-colab
COLAB_STAMP := $(COLAB_VENV)/.installed
COLAB_PINS := 'numpy>=2,<3' 'matplotlib>=3.10,<3.11' 'ipywidgets==7.7.1' \
	'widgetsnbextension>=3.6,<3.7' 'notebook>=6.5,<7' 'ipykernel>=6,<7' 'setuptools>=75'
COLAB_PYTHON ?= $(firstword $(wildcard $(HOME)/.pyenv/versions/3.12.*/bin/python3.12) \
	$(shell for p in python3.12 python3.13; do \
	  $$p -c 'import sys; print(sys.executable)' 2>/dev/null && break; done) $(PYTHON))

$(COLAB_STAMP): $(STAMP) pyproject.toml classroom/setup_cell.py Makefile
	rm -rf $(COLAB_VENV)
	$(COLAB_PYTHON) -m venv $(COLAB_VENV)
	$(COLAB_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(COLAB_VENV)/bin/python -m pip install --quiet $(COLAB_PINS)
	$(COLAB_VENV)/bin/python -m pip freeze > $(COLAB_VENV)/preinstalled.txt
	$(BIN)/python -m classroom.setup_cell --colab-requirements > $(COLAB_VENV)/cell.txt
	$(COLAB_VENV)/bin/python -m pip download --quiet --dest $(COLAB_VENV)/wheelhouse \
		--constraint $(COLAB_VENV)/preinstalled.txt --requirement $(COLAB_VENV)/cell.txt
	$(COLAB_VENV)/bin/python -m pip download --quiet --dest $(COLAB_VENV)/wheelhouse --no-deps \
		'setuptools>=68'
	touch $(COLAB_STAMP)

## lab: set up and open the lessons in JupyterLab (learners)
# Learners work on copies in my-lessons/, so release/ stays as published; a lesson already
# copied is never overwritten. lab/learner/ turns nbgrader's authoring and grading UI off for
# this JupyterLab only (an instructor's `.venv/bin/jupyter lab` keeps it). JupyterLab refuses
# to run as root (a container's usual user) unless told so: told only then.
lab: $(STAMP)
	mkdir -p my-lessons
	cp -Rn release/. my-lessons/
	JUPYTER_CONFIG_PATH=$(CURDIR)/lab/learner $(BIN)/jupyter lab --notebook-dir=my-lessons \
		$(if $(filter 0,$(shell id -u)),--allow-root) $(CURDIR)/my-lessons/START.md

## test: set up and run every check of the course and its autograder
# The browser tests need Debian's chromium (.ci/run installs it; or `apt-get install chromium`):
# without it they are skipped, with that message, except under CI, where they fail. So are the
# Slurm tests, which need Debian's slurm-wlm and munge and root (they start a one-node Slurm).
test: $(STAMP) $(COLAB_STAMP)
	$(BIN)/python -m pytest

## build: regenerate release/ and the self-study solutions from source/ with nbgrader
# First it stamps every lesson's set-up cell and Colab badge (and the README's badges) for
# the course address in pyproject.toml; it also writes the course wheel into release/.
build: $(STAMP)
	$(BIN)/python -m classroom.build --normalise-source

## grade: grade the bundled demo class into .grading/demo/ (the course's own records untouched)
grade: $(STAMP)
	$(BIN)/python -m classroom.grade --demo

## format: format and lint the package, the tests and the source notebooks
format: $(STAMP)
	$(BIN)/ruff format course classroom grader_tests source nbgrader_config.py
	$(BIN)/ruff check --fix course classroom grader_tests source nbgrader_config.py

lint: $(STAMP)
	$(BIN)/ruff format --check course classroom grader_tests source nbgrader_config.py
	$(BIN)/ruff check course classroom grader_tests source nbgrader_config.py

clean:
	rm -rf $(VENV) $(COLAB_VENV) gradebook.db submitted feedback grades.csv
