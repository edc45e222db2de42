package io.github.redisdelaybridge.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
    private final List<String> extraArguments = new ArrayList<>();
    private ChildProcess process;
    private int starts;

    public RedisServerProcess(String name, boolean durable) {
        this(name, durable, FreePorts.next());
    }

    /** On a port chosen by the test (for a server that starts after the bridge was pointed at it). */
    public RedisServerProcess(String name, boolean durable, int port) {
        this.port = port;
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

    public int port() {
        return port;
    }

    /** More redis-server arguments for the next start, e.g. {@code "--maxmemory-policy", "allkeys-lru"}. */
    public RedisServerProcess with(String... arguments) {
        extraArguments.addAll(List.of(arguments));
        return this;
    }

    /** Starts as a replica of {@code master}. */
    public RedisServerProcess replicaOf(RedisServerProcess master) {
        return with("--replicaof", "127.0.0.1", Integer.toString(master.port()));
    }

    /** SIGSTOP: it answers nothing (a replica stops acknowledging) until {@link #thaw()}. */
    public void freeze() throws java.io.IOException, InterruptedException {
        process.freeze();
    }

    public void thaw() throws java.io.IOException, InterruptedException {
        process.thaw();
    }

    public boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Of the running server (the benchmark measures its CPU and raises its priority). */
    public long pid() {
        return process.pid();
    }

    public RedisServerProcess start() throws InterruptedException {
        List<String> command = new ArrayList<>(durable
                ? List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1", "--dir", directory.toString(),
                        "--save", "", "--appendonly", "yes", "--appendfsync", "always")
                : List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1", "--dir", directory.toString(),
                        "--save", "", "--appendonly", "no"));
        command.addAll(extraArguments);
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

    /** Through redis-cli: a Lettuce client per try costs seconds of class loading on a busy machine. */
    private void awaitPing(Duration timeout) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        while (System.currentTimeMillis() < deadline) {
            try {
                Process ping = new ProcessBuilder("redis-cli", "-p", Integer.toString(port), "PING").redirectErrorStream(true).start();
                String answer = new String(ping.getInputStream().readAllBytes()).strip();
                ping.waitFor();
                if ("PONG".equals(answer)) {
                    return;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server on port " + port + " exited:\n" + process.logText());
            }
            Thread.sleep(50);
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
