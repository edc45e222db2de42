package io.github.redisdelaybridge.benchmark;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;

/**
 * A dedicated redis-server for one benchmark run: a child process on a free loopback port, without
 * persistence, so that memory and SLOWLOG figures are clean and the shared Redis on 6379 is not disturbed.
 * It is killed when the benchmark ends (or the JVM exits).
 */
final class RedisServerProcess implements AutoCloseable {

    private final Process process;
    private final int port;

    private RedisServerProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static RedisServerProcess start(File log) throws IOException, InterruptedException {
        int port = freePort();
        ProcessBuilder builder = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--daemonize", "no", "--dir", log.getAbsoluteFile().getParent());
        builder.redirectErrorStream(true).redirectOutput(log);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new IOException("redis-server is not on the PATH: install it (apt-get install redis-server) or pass --redis URI", e);
        }
        RedisServerProcess server = new RedisServerProcess(process, port);
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "benchmark-redis-stop"));
        long deadline = System.currentTimeMillis() + 10_000;
        while (!server.answers()) {
            if (!process.isAlive() || System.currentTimeMillis() > deadline) {
                server.close();
                throw new IOException("redis-server did not start on port " + port + "; see " + log);
            }
            Thread.sleep(50);
        }
        return server;
    }

    String uri() {
        return "redis://127.0.0.1:" + port;
    }

    long pid() {
        return process.pid();
    }

    private boolean answers() {
        RedisURI uri = RedisURI.create(uri());
        uri.setTimeout(Duration.ofMillis(300));
        RedisClient client = RedisClient.create(uri);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return "PONG".equals(connection.sync().ping());
        } catch (RuntimeException e) {
            return false;
        } finally {
            client.shutdown(Duration.ZERO, Duration.ZERO);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(3, java.util.concurrent.TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
