# The dashboard in a container:
#   docker build -t rocci . && docker run --rm -p 8501:8501 rocci
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt

COPY .streamlit ./.streamlit
COPY rocci ./rocci
COPY ui ./ui
COPY app_pages ./app_pages
COPY data ./data
COPY app.py .

RUN useradd --create-home rocci
USER rocci

EXPOSE 8501
# .streamlit/config.toml listens on 127.0.0.1 (this computer only); a container is reached from
# outside through its published port, so it listens on every interface: --server.address=0.0.0.0.
HEALTHCHECK --interval=30s --timeout=5s CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health')"
CMD ["python", "-m", "streamlit", "run", "app.py", "--server.address=0.0.0.0", "--server.port=8501", "--server.headless=true", "--browser.gatherUsageStats=false"]
