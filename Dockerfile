# A container for one shard of `marbles batch` (see docs/cluster.md). The puzzle folder and
# any rules/ of its own are mounted at /data; each shard's results go under /out.
FROM rust:1.95-slim AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src src
COPY rules rules
COPY benches benches
RUN cargo build --release --locked --bin marbles

FROM debian:bookworm-slim
COPY --from=build /src/target/release/marbles /usr/local/bin/marbles
WORKDIR /data
ENTRYPOINT ["marbles", "batch", "/data/puzzles", "--quiet", "--shard", "auto"]
