"""Fixtures for the network tests; the helpers themselves live in netkit.py."""

import pytest

from netkit import load


@pytest.fixture(scope="session")
def scenario():
    return load()
