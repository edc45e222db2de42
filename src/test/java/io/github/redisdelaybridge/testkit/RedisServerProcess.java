package io.github.redisdelaybridge.testkit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A redis-server of the test's own on a free loopback port, so a test can crash and restart it without
 * touching the shared Redis. With {@code durable}, it writes an append-only file with
 * {@code appendfsync always}, so a crash loses nothing it acknowledged.
 */
public final class RedisServerProcess implements AutoCloseable {

    private final int port;
    private final Path directory;
    private final boolean durable;
    private ChildProcess process;
    private int starts;

    public RedisServerProcess(String name, boolean durable) {
        this.port = FreePorts.next();
        this.durable = durable;
        try {
            this.directory = Files.createTempDirectory("redis-" + name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** Of the running server (the benchmark measures its CPU and raises its priority). */
    public long pid() {
        return process.pid();
    }

    public RedisServerProcess start() throws InterruptedException {
        List<String> command = durable
                ? List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1", "--dir", directory.toString(),
                        "--save", "", "--appendonly", "yes", "--appendfsync", "always")
                : List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1", "--dir", directory.toString(),
                        "--save", "", "--appendonly", "no");
        process = new ChildProcess("redis-" + port + "-" + (++starts), command, Map.of()).start();
        awaitPing(Duration.ofSeconds(10));
        return this;
    }

    /** SIGTERM: a clean stop; without {@code durable}, everything it held is lost. */
    public void stop() throws InterruptedException {
        process.stop(Duration.ofSeconds(10));
    }

    /** SIGKILL: whatever was acknowledged must be in the append-only file. */
    public void crash() throws InterruptedException {
        process.kill();
    }

    private void awaitPing(Duration timeout) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        while (System.currentTimeMillis() < deadline) {
            RedisURI redisUri = RedisURI.create(uri());
            redisUri.setTimeout(Duration.ofMillis(300));
            RedisClient client = RedisClient.create(redisUri);
            try (StatefulRedisConnection<String, String> c = client.connect()) {
                if ("PONG".equals(c.sync().ping())) {
                    return;
                }
            } catch (RuntimeException notYet) {
                Thread.sleep(50);
            } finally {
                client.shutdown(Duration.ZERO, Duration.ZERO);
            }
        }
        throw new IllegalStateException("redis-server on port " + port + " did not answer");
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null) {
            process.close();
        }
    }
}
