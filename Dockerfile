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
    && useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin kinrow
COPY --from=builder /usr/local/bin/kinrow /usr/local/bin/kinrow
USER 10001
ENV KINROW_ADDR=0.0.0.0:8080 \
    RUST_LOG=info
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["/usr/local/bin/kinrow"]
CMD ["serve"]
