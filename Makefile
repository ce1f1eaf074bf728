# The two commands a newcomer needs: `make run` and `make test`.
# Both create .venv with python3 and install what they need into it.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 5000
STAMP  := $(VENV)/.installed

.PHONY: run build serve test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# COMPANION_URL: where the printed QR codes point (default http://localhost:5000; with LAN=1
# http://$(MDNS_NAME).local:$(PORT), the name the companion advertises, which outlives the Wi-Fi address).
# LAN=1: serve the companion on every interface, for phones on the same Wi-Fi.
MDNS_NAME ?= tokyo-kit
ifneq ($(LAN),)
COMPANION_URL ?= http://$(MDNS_NAME).local:$(PORT)
endif
build: $(STAMP)
	$(PY) -m generator build $(if $(COMPANION_URL),--companion-url $(COMPANION_URL))

# `make run` is for the table: the kits are built for the address the companion advertises
# (http://$(MDNS_NAME).local:$(PORT)) and it serves phones on the Wi-Fi (LAN=1). LOCAL=1 keeps this
# computer only (http://localhost:$(PORT); the printed QR codes then open nothing on a phone).
# Target-specific values also hold for `build` when run builds it.
ifeq ($(LOCAL),)
run: LAN = 1
run: COMPANION_URL = http://$(MDNS_NAME).local:$(PORT)
endif
run: build
	PORT=$(PORT) $(PY) -m companion --port $(PORT) $(if $(LAN),--lan --mdns-name $(MDNS_NAME)) $(if $(COMPANION_URL),--base-url $(COMPANION_URL))

# Browser tests drive Debian's chromium, the hosted companion's tests Debian's PostgreSQL; install
# them when missing and we are root.
test: $(STAMP)
	@# (and its headless shell, the same Blink at half the CPU, which the tests drive when it is there;
	@# a system without that package gets chromium alone)
	@{ command -v chromium && command -v chromium-headless-shell; } >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && \
	  (apt-get update -qq && { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium \
	    chromium-headless-shell >/dev/null 2>&1 || \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }) || \
	  echo "note: chromium not installed; browser tests will be skipped"; }
	@command -v pdftoppm >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils >/dev/null) || true; }
	@# The hosted companion's tests start a throwaway PostgreSQL cluster with Debian's initdb/pg_ctl.
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || \
	  { [ "$$(id -u)" = 0 ] && \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) || \
	  echo "note: PostgreSQL not installed; the hosted companion's tests will be skipped"; }
	$(PY) -m ruff check .
	@# One pytest-xdist worker more than the cores (the browser tests spend much of their time waiting on
	@# pages and timers: with one per core the cores stood a fifth idle), each test file whole on one
	@# worker (its fixtures set up once); the kits the print tests measure are built once for all
	@# workers (tests/conftest.py, kit_builds).
	$(PY) -m pytest -n $$(( $$(nproc 2>/dev/null || echo 1) + 1 )) --dist loadfile

# Every script in benchmarks/ (the generator, the companion, and each game's own).
bench: $(STAMP)
	@for script in benchmarks/*.py; do echo "== $$script"; $(PY) $$script || exit 1; done

clean:
	rm -rf $(VENV) output/*/ output/manifest.json
