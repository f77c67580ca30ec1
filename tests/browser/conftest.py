"""Fixtures the browser tests share."""

import os
from pathlib import Path

import pytest

AXE = Path(__file__).resolve().parents[2] / ".ci" / "node" / "node_modules" / "axe-core"


@pytest.fixture
def axe_script():
    """axe-core's script, from the npm package .ci/run installs (never fetched at run time)."""
    script = AXE / "axe.min.js"
    if not script.exists():
        message = f"axe-core is not installed at {AXE} (npm ci --prefix .ci/node)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return str(script)


@pytest.fixture(autouse=True)
def routes_let_go(request):
    """A test that holds a request in a route handler (an answer that never comes) would leave
    the context's close waiting on it for ever, and the whole run with it: every route is let
    go, its held requests dropped, before the page and its context close."""
    if "page" not in request.fixturenames:
        yield
        return
    page = request.getfixturevalue("page")
    yield
    page.context.unroute_all(behavior="ignoreErrors")
    page.unroute_all(behavior="ignoreErrors")
