# syntax=docker/dockerfile:1
# kinrow: a multi-stage build. The builder compiles the release binary from the
# locked dependency set; the runtime is a slim Debian with only the binary, run as
# a non-root user.

FROM rust:1.95-slim-bookworm AS builder
WORKDIR /src
COPY . .
# The cache mounts keep the registry and build artefacts between builds on one host.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked --bin kinrow \
    && cp target/release/kinrow /usr/local/bin/kinrow

FROM debian:bookworm-slim AS runtime
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 kinrow \
    && useradd --system --uid 10001 --gid 10001 --no-create-home --shell /usr/sbin/nologin kinrow
COPY --from=builder /usr/local/bin/kinrow /usr/local/bin/kinrow
# Numeric uid:gid, so that Kubernetes' runAsNonRoot can verify it without
# reading /etc/passwd, and the process never runs with the root group.
USER 10001:10001
# External Gomocup engines: mount the brain into the container and name it, e.g.
#   docker run -v /opt/rapfi:/opt/rapfi:ro \
#     -e KINROW_EXTERNAL_ENGINES="rapfi=/opt/rapfi/pbrain-rapfi" kinrow:local
# (the brain runs as uid 10001 and needs whatever files it reads beside it; docs/external.md).
ENV KINROW_ADDR=0.0.0.0:8080 \
    RUST_LOG=info
EXPOSE 8080
# SIGTERM starts a graceful drain of up to KINROW_SHUTDOWN_GRACE_SECS (30 s by
# default); give `docker stop` at least that: `docker stop -t 35`, or
# `stop_grace_period` in compose (deploy/compose.yaml does).
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["/usr/local/bin/kinrow"]
CMD ["serve"]
