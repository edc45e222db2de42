# syntax=docker/dockerfile:1
# The redis-delay-bridge image: built from this source tree with Maven, run on a Java 17 JRE as a non-root
# user. Every setting comes from environment variables (bridge.redis.uri -> BRIDGE_REDIS_URI, see
# docs/deployment.md), JVM options from JAVA_OPTS.
#   docker build -t redis-delay-bridge .          (podman: add --format docker, or the OCI format drops HEALTHCHECK)
# A release passes what the labels say (docs/deployment.md, Cutting a release):
#   --build-arg VERSION=0.1.0 --build-arg REVISION=$(git rev-parse HEAD) --build-arg CREATED=$(date -u +%Y-%m-%dT%H:%M:%SZ)
#   --build-arg SOURCE=<the repository's URL>
#   docker run -p 8080:8080 -e BRIDGE_REDIS_URI=redis://redis:6379 -e BRIDGE_KAFKA_BOOTSTRAP_SERVERS=kafka:9092 redis-delay-bridge
# DockerfileTest and DockerfileCopiesIT check this file against the build and the bridge's settings.

FROM maven:3.9-eclipse-temurin-17 AS build
# the commit, for the bridge's --version: the build context has no .git (.dockerignore)
ARG REVISION=unknown
WORKDIR /build
COPY pom.xml ./
COPY src ./src
COPY bin ./bin
COPY config ./config
COPY routes ./routes
COPY docs ./docs
COPY README.md CHANGELOG.md ./
# the distribution, unpacked in target/redis-delay-bridge/ (the tests are not compiled here: CI runs them)
RUN --mount=type=cache,target=/root/.m2 mvn -B -q -Dmaven.test.skip=true -Dgit.commit.id=${REVISION} package

FROM eclipse-temurin:17-jre
# What the image is (OCI annotations): the defaults name the version this Dockerfile builds; a release sets them all.
# The bill of materials of the jars it runs is /opt/redis-delay-bridge/sbom.cdx.json (CycloneDX).
ARG VERSION=0.1.0-SNAPSHOT
ARG REVISION=unknown
ARG CREATED=unknown
ARG SOURCE=unknown
LABEL org.opencontainers.image.title="redis-delay-bridge" \
      org.opencontainers.image.description="Durable, precise, per-message delayed delivery for Kafka and RabbitMQ, backed by Redis" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.source="${SOURCE}"
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 bridge \
    && useradd --system --uid 10001 --gid bridge --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin bridge
# owned by root, read-only for the bridge: it writes nothing but temporary files (/tmp)
COPY --from=build /build/target/redis-delay-bridge/ /opt/redis-delay-bridge/
# BRIDGE_HOME: config/ and routes/ of this install (the start script would find them anyway).
# CAMEL_SERVER_HOST: the HTTP server (health, metrics, admin API) on every interface of the container; the admin
# API then answers only with BRIDGE_ADMIN_TOKEN (or BRIDGE_ADMIN_TOKEN_FILE) set, and only to the Host names in
# BRIDGE_ADMIN_ALLOWED_HOSTS besides localhost (docs/security.md). Health and metrics answer to any Host.
# JAVA_OPTS: G1 with a 10 ms pause goal and a young generation of a third of the heap, as bin/redis-delay-bridge
# has by default (a GC pause is lateness for every message due during it: short and seconds apart); the heap sized from the container's memory limit; a JVM out of
# memory exits, so that the orchestrator restarts it (leases return its claimed messages).
ENV BRIDGE_HOME=/opt/redis-delay-bridge \
    CAMEL_SERVER_HOST=0.0.0.0 \
    JAVA_OPTS="-XX:+UseG1GC -XX:MaxGCPauseMillis=10 -XX:NewRatio=2 -XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"
USER 10001:10001
WORKDIR /opt/redis-delay-bridge
# camel.server.port: health (/observe/health, /live, /ready), metrics (/observe/metrics), admin API (/api)
EXPOSE 8080
# ready = every route started, each Kafka consumer joined its group, Redis takes a write, RabbitMQ (when enabled) connected;
# asked on the port the bridge is given (-Dcamel.server.port=... in JAVA_OPTS, or the properties file): bin/healthcheck
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
    CMD ["/opt/redis-delay-bridge/bin/healthcheck"]
# exec form, and the script execs java: the JVM is PID 1, so the SIGTERM of `docker stop` reaches it and the
# bridge stops gracefully (within camel.main.shutdown-timeout; give it a longer stop timeout)
ENTRYPOINT ["/opt/redis-delay-bridge/bin/redis-delay-bridge"]
