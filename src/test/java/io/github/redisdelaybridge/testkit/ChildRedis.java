package io.github.redisdelaybridge.testkit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A redis-server of this test's own (from PATH), as a child process on a free loopback port, without
 * persistence: a test can stop and start it without touching the shared Redis on 6379.
 */
public final class ChildRedis implements AutoCloseable {

    private final int port;
    private Process process;

    public ChildRedis() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            this.port = socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        start();
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** Starts the server (again, on the same port) and waits until it answers. */
    public void start() {
        try {
            process = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no")
                    .redirectOutput(new File(System.getProperty("java.io.tmpdir"), "child-redis-" + port + ".log"))
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("redis-server is needed on PATH for this test", e);
        }
        long deadline = System.currentTimeMillis() + 10_000;
        while (!answers()) {
            if (System.currentTimeMillis() > deadline || !process.isAlive()) {
                throw new IllegalStateException("redis-server on port " + port + " did not start");
            }
            sleep(50);
        }
    }

    /** Stops the server (SIGTERM) and waits until it is gone; everything it held is lost. */
    public void stop() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private boolean answers() {
        RedisURI redisUri = RedisURI.create(uri());
        redisUri.setTimeout(Duration.ofMillis(500));
        RedisClient client = RedisClient.create(redisUri);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return "PONG".equals(connection.sync().ping());
        } catch (RuntimeException e) {
            return false;
        } finally {
            client.shutdown(Duration.ZERO, Duration.ZERO);
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            stop();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
