"""Shared code of the rocci dashboard (Streamlit only; the rocci package never imports it).

- :mod:`ui.state`    -- the loaded dataset and its column mapping, kept in session state.
- :mod:`ui.cache`    -- ``st.cache_data`` wrappers keyed on a digest of the data bytes.
- :mod:`ui.download` -- CSV downloads with spreadsheet-formula neutralisation.
- :mod:`ui.sidebar`  -- the shared sidebar.
- :mod:`ui.text`     -- formatting and safe display of text that comes from files.
"""
