package io.github.redisdelaybridge.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A Redis Cluster of the test's own: {@code masters} redis-server processes in cluster mode on free
 * loopback ports, joined by {@code redis-cli --cluster create} with no replicas.
 */
public final class RedisClusterProcesses implements AutoCloseable {

    private final List<Integer> ports = new ArrayList<>();
    private final List<ChildProcess> servers = new ArrayList<>();

    public RedisClusterProcesses(int masters) throws IOException, InterruptedException {
        for (int i = 0; i < masters; i++) {
            int port = FreePorts.next();
            Path dir = Files.createTempDirectory("redis-cluster-" + port);
            ports.add(port);
            servers.add(new ChildProcess("redis-cluster-" + port, List.of("redis-server", "--port", Integer.toString(port),
                    "--bind", "127.0.0.1", "--dir", dir.toString(), "--cluster-enabled", "yes",
                    "--cluster-config-file", dir.resolve("nodes.conf").toString(), "--save", "", "--appendonly", "no"), Map.of()).start());
        }
        for (int port : ports) {
            awaitPong(port);
        }
        List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
        ports.forEach(port -> create.add("127.0.0.1:" + port));
        create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
        Process process = new ProcessBuilder(create).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (process.waitFor() != 0 || !output.contains("[OK] All 16384 slots covered")) {
            throw new IllegalStateException("redis-cli --cluster create failed:\n" + output);
        }
        awaitClusterOk();
    }

    /** Seed nodes, comma-separated, for bridge.redis.uri. */
    public String uris() {
        return ports.stream().map(port -> "redis://127.0.0.1:" + port).collect(Collectors.joining(","));
    }

    /** The port of the master that owns a key's hash slot. */
    public int portOwning(String key) {
        io.lettuce.core.cluster.RedisClusterClient client = io.lettuce.core.cluster.RedisClusterClient.create("redis://127.0.0.1:" + ports.get(0));
        try {
            client.refreshPartitions();
            return client.getPartitions().getPartitionBySlot(io.lettuce.core.cluster.SlotHash.getSlot(key)).getUri().getPort();
        } finally {
            client.shutdown();
        }
    }

    /** Stops the master on {@code port} answering (SIGSTOP): its connections stay open, commands wait in them. */
    public void freeze(int port) throws IOException, InterruptedException {
        servers.get(ports.indexOf(port)).freeze();
    }

    /** Lets a frozen master run again: it answers what waited. */
    public void thaw(int port) throws IOException, InterruptedException {
        servers.get(ports.indexOf(port)).thaw();
    }

    /** Process ids of the masters, for measuring their CPU time. */
    public List<Long> pids() {
        return servers.stream().map(ChildProcess::pid).toList();
    }

    private static void awaitPong(int port) throws IOException, InterruptedException {
        for (int i = 0; i < 100; i++) {
            if (cli(port, "PING").contains("PONG")) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("redis-server on " + port + " did not answer");
    }

    private void awaitClusterOk() throws IOException, InterruptedException {
        for (int i = 0; i < 200; i++) {
            boolean allOk = true;
            for (int port : ports) {
                allOk &= cli(port, "CLUSTER", "INFO").contains("cluster_state:ok");
            }
            if (allOk) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("cluster did not reach cluster_state:ok");
    }

    private static String cli(int port, String... command) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("redis-cli", "-p", Integer.toString(port)));
        args.addAll(List.of(command));
        Process process = new ProcessBuilder(args).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        process.waitFor();
        return output;
    }

    /** Keys held by each master, to show the load spread. */
    public List<Long> keysPerMaster() throws IOException, InterruptedException {
        List<Long> counts = new ArrayList<>();
        for (int port : ports) {
            counts.add(Long.parseLong(cli(port, "DBSIZE").strip()));
        }
        return counts;
    }

    @Override
    public void close() throws InterruptedException {
        for (ChildProcess server : servers) {
            server.close();
        }
    }
}
