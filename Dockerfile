# The dashboard in a container:
#   docker build -t rocci . && docker run --rm -p 8501:8501 rocci
# Large files read where they lie (the Data page's "Large data (server)" source; docs/deployment.md, "Deploying
# for a team"): mount a directory read-only and name it in ROCCI_DATA_DIR (unset: not offered):
#   docker run --rm -p 127.0.0.1:8501:8501 -e ROCCI_DATA_DIR=/data -v /srv/scores:/data:ro rocci
#
# Base image: not pinned by digest yet.  The machine this was written on cannot reach Docker Hub,
# so the digest of python:3.11-slim could not be looked up, and none is invented here.  To pin it
# where Docker Hub is reachable:
#   docker pull python:3.11-slim && docker inspect --format '{{index .RepoDigests 0}}' python:3.11-slim
# then write that, e.g. FROM python:3.11-slim@sha256:<digest>, below.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
# glibc: arrays of 1 MB or more are mapped on their own and given back to the system when freed
# (by default the threshold climbs to 32 MB and a large upload's freed columns stay in the process),
# and 2 malloc arenas rather than 8 per core.  bench/README.md, "Load test", has the figures.
ENV MALLOC_MMAP_THRESHOLD_=1048576 \
    MALLOC_ARENA_MAX=2
# One BLAS thread per computation: the sessions of a server already share its cores (scripts/run.sh says why).
ENV OPENBLAS_NUM_THREADS=1 \
    OMP_NUM_THREADS=1

WORKDIR /app
# Every package, direct and transitive, pinned with its hashes (requirements.lock, made by
# pip-compile from requirements.txt): pip refuses any file whose hash differs.
COPY requirements.lock .
RUN pip install --require-hashes -r requirements.lock

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
