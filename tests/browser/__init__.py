"""Real-browser tests of the dashboard (a package, so its conftest has a unique module name)."""
