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
 * loopback ports, joined by {@code redis-cli --cluster create}, with no replicas or with one replica per master
 * (a replica promoted when its master fails, after the node timeout).
 */
public final class RedisClusterProcesses implements AutoCloseable {

    private final List<Integer> ports = new ArrayList<>();
    private final List<ChildProcess> servers = new ArrayList<>();

    private final int masters;

    public RedisClusterProcesses(int masters) throws IOException, InterruptedException {
        this(masters, 0, 15_000);
    }

    /** @param replicasPerMaster 0 or 1; the first {@code masters} ports are the masters */
    public RedisClusterProcesses(int masters, int replicasPerMaster, long nodeTimeoutMs) throws IOException, InterruptedException {
        this.masters = masters;
        for (int i = 0; i < masters * (1 + replicasPerMaster); i++) {
            int port = FreePorts.next();
            Path dir = Files.createTempDirectory("redis-cluster-" + port);
            ports.add(port);
            servers.add(new ChildProcess("redis-cluster-" + port, List.of("redis-server", "--port", Integer.toString(port),
                    "--bind", "127.0.0.1", "--dir", dir.toString(), "--cluster-enabled", "yes",
                    "--cluster-config-file", dir.resolve("nodes.conf").toString(), "--cluster-node-timeout", Long.toString(nodeTimeoutMs),
                    "--save", "", "--appendonly", "no"), Map.of()).start());
        }
        for (int port : ports) {
            awaitPong(port);
        }
        List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
        ports.forEach(port -> create.add("127.0.0.1:" + port));
        create.addAll(List.of("--cluster-replicas", Integer.toString(replicasPerMaster), "--cluster-yes"));
        Process process = new ProcessBuilder(create).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (process.waitFor() != 0 || !output.contains("[OK] All 16384 slots covered")) {
            throw new IllegalStateException("redis-cli --cluster create failed:\n" + output);
        }
        awaitClusterOk();
        if (replicasPerMaster > 0) {
            awaitReplicasInSync();
        }
    }

    /** The ports of the nodes that are masters now. */
    public List<Integer> masterPorts() throws IOException, InterruptedException {
        List<Integer> now = new ArrayList<>();
        for (int i = 0; i < ports.size(); i++) {
            if (servers.get(i).isAlive() && cli(ports.get(i), "ROLE").startsWith("master")) {
                now.add(ports.get(i));
            }
        }
        return now;
    }

    /** SIGKILL of the node on {@code port}: what it had not replicated is gone. */
    public void crash(int port) throws InterruptedException {
        servers.get(ports.indexOf(port)).kill();
    }

    /** Starts the crashed node on {@code port} again, with its cluster config: it rejoins as the replica of its successor. */
    public void restart(int port) throws IOException, InterruptedException {
        servers.get(ports.indexOf(port)).start();
        awaitPong(port);
    }

    /** Waits until the cluster serves every slot again without the node on {@code deadPort}: its replica was promoted. */
    public void awaitFailover(int deadPort, java.time.Duration timeout) throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        while (System.currentTimeMillis() < deadline) {
            boolean ok = true;
            for (int i = 0; i < ports.size(); i++) {
                if (ports.get(i) != deadPort && servers.get(i).isAlive()) {
                    ok &= cli(ports.get(i), "CLUSTER", "INFO").contains("cluster_state:ok");
                }
            }
            if (ok && masterPorts().size() == masters) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("no replica took over from the node on " + deadPort + " within " + timeout);
    }

    private void awaitReplicasInSync() throws IOException, InterruptedException {
        for (int i = 0; i < 300; i++) {
            boolean synced = true;
            for (int port : ports.subList(masters, ports.size())) {
                synced &= cli(port, "INFO", "replication").contains("master_link_status:up");
            }
            if (synced) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the replicas did not sync with their masters");
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
