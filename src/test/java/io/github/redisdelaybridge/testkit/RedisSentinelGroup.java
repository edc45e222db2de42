package io.github.redisdelaybridge.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A master, one replica and three sentinels of the test's own on free loopback ports, with short timeouts (a master
 * is down after 1 s, a failover times out after 3 s), so a test can kill the master and see the replica promoted; the
 * replica's replication may run through a relay the test can pause.
 * Closing stops every process it started, including ones a test already killed.
 */
public final class RedisSentinelGroup implements AutoCloseable {

    public static final String MASTER_NAME = "bridgemaster";

    private final RedisServerProcess master;
    private final RedisServerProcess replica;
    private final TcpRelay replicationLink;
    private final long failoverTimeoutMs;
    private final List<Integer> sentinelPorts = new ArrayList<>();
    private final List<ChildProcess> sentinels = new ArrayList<>();

    public RedisSentinelGroup(String name) throws Exception {
        this(name, false);
    }

    /**
     * @param relayedReplication the replica replicates through a {@link TcpRelay} ({@link #replicationLink()}), so a test can
     *                           withhold the replication stream; the sentinels then wait 60 s (failover-timeout 30 s) before
     *                           they would point the replica at the master's own port, longer than a test takes
     */
    public RedisSentinelGroup(String name, boolean relayedReplication) throws Exception {
        master = new RedisServerProcess(name + "-master", false);
        replicationLink = relayedReplication ? new TcpRelay("127.0.0.1", master.port()) : null;
        replica = new RedisServerProcess(name + "-replica", false)
                .with("--replicaof", "127.0.0.1", Integer.toString(relayedReplication ? replicationLink.port() : master.port()));
        failoverTimeoutMs = relayedReplication ? 30_000 : 3_000;
        try {
            master.start();
            replica.start();
            awaitField(replica.port(), "INFO replication", "master_link_status:up");
            for (int i = 0; i < 3; i++) {
                startSentinel(name);
            }
            for (int port : sentinelPorts) {
                // each sentinel must know the replica and the two other sentinels before a failover can succeed
                awaitField(port, "SENTINEL master " + MASTER_NAME, "num-slaves\n1");
                awaitField(port, "SENTINEL master " + MASTER_NAME, "num-other-sentinels\n2");
            }
        } catch (Exception e) {
            close();
            throw e;
        }
    }

    private void startSentinel(String name) throws IOException {
        int port = FreePorts.next();
        Path dir = Files.createTempDirectory("sentinel-" + port);
        Path config = dir.resolve("sentinel.conf");
        Files.writeString(config, String.join("\n",
                "port " + port,
                "bind 127.0.0.1",
                "dir " + dir,
                "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + master.port() + " 2",
                "sentinel down-after-milliseconds " + MASTER_NAME + " 1000",
                "sentinel failover-timeout " + MASTER_NAME + " " + failoverTimeoutMs,
                "sentinel parallel-syncs " + MASTER_NAME + " 1",
                ""));
        sentinelPorts.add(port);
        sentinels.add(new ChildProcess(name + "-sentinel-" + port, List.of("redis-server", config.toString(), "--sentinel"), Map.of()).start());
    }

    /** For bridge.redis.uri: the three sentinels and the master's name. */
    public String uri() {
        return "redis-sentinel://" + sentinelPorts.stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(","))
                + "#" + MASTER_NAME;
    }

    public RedisServerProcess master() {
        return master;
    }

    public RedisServerProcess replica() {
        return replica;
    }

    /** The relay the replica replicates through; only with relayed replication. */
    public TcpRelay replicationLink() {
        if (replicationLink == null) {
            throw new IllegalStateException("this group replicates directly, not through a relay");
        }
        return replicationLink;
    }

    /** The port of the master the sentinels name now. */
    public int masterPort() throws IOException, InterruptedException {
        String[] lines = cli(sentinelPorts.get(0), "SENTINEL", "get-master-addr-by-name", MASTER_NAME).strip().split("\n");
        return Integer.parseInt(lines[lines.length - 1].strip());
    }

    /** Waits until the sentinels name the replica as the master. */
    public void awaitReplicaPromoted(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        while (System.currentTimeMillis() < deadline) {
            if (masterPort() == replica.port() && cli(replica.port(), "ROLE").startsWith("master")) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the replica on " + replica.port() + " was not promoted within " + timeout);
    }

    private static void awaitField(int port, String command, String expected) throws IOException, InterruptedException {
        String output = "";
        for (int i = 0; i < 200; i++) {
            output = cli(port, command.split(" "));
            if (output.contains(expected)) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("port " + port + ": '" + command + "' never showed '" + expected + "':\n" + output);
    }

    public static String cli(int port, String... command) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("redis-cli", "-p", Integer.toString(port)));
        args.addAll(List.of(command));
        Process process = new ProcessBuilder(args).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        process.waitFor();
        return output;
    }

    @Override
    public void close() throws InterruptedException {
        for (ChildProcess sentinel : sentinels) {
            sentinel.close();
        }
        replica.close();
        master.close();
        if (replicationLink != null) {
            replicationLink.close();
        }
    }
}
